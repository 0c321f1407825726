import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import { REVISIONS, type Revision } from "../protocol/versions.js";
import type { SchemaInput } from "../schema/standard.js";
import type { Transport } from "../transports/transport.js";
import { FeatureSet } from "./definition/feature-set.js";
import {
  type PromptArgs,
  type PromptConfig,
  type PromptEntry,
  type PromptHandler,
  promptEntry,
} from "./definition/prompt.js";
import {
  type ReadHandler,
  type ResourceConfig,
  type ResourceEntry,
  type ResourceTemplateConfig,
  resourceEntry,
  type TemplateEntry,
  type TemplateReadHandler,
  templateEntry,
} from "./definition/resource.js";
import { type ToolConfig, type ToolEntry, type ToolHandler, toolEntry } from "./definition/tool.js";
import { type ServerSession, type SessionOptions, serveSession } from "./stateful.js";

export interface ServerOptions extends Implementation {
  /** server/index: guidance for the model on how to use this server. */
  instructions?: string;
  /** Items per page on every list (default 1000). */
  pageSize?: number;
  /** Capabilities to declare beyond the ones derived from what is registered. */
  capabilities?: ServerCapabilities;
  /** Revisions to accept, oldest first (default: all, 2024-11-05 … 2026-07-28). */
  revisions?: readonly Revision[];
  /** Timeout for requests the server sends (sampling, elicitation, roots), ms (default 60 000; 0 disables). */
  requestTimeoutMs?: number;
  /** Called when a client finishes the handshake (notifications/initialized), on every transport. */
  onSession?: (session: ServerSession) => void;
  /** Unexpected failures inside handlers (default: printed to stderr). Peers only see "Internal error". */
  onError?: (error: unknown) => void;
}

export type ListKind = "tools" | "resources" | "prompts";

/** A registered tool, resource, template or prompt: change it at runtime and clients are told. */
export interface Handle {
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  remove(): void;
}

/** The hooks a connected session gives the server for broadcasts. */
export interface SessionHooks {
  listChanged(kind: ListKind): void;
  resourceUpdated(uri: string): void;
}

const defaultOnError = (error: unknown) => {
  process.stderr.write(
    `mcpkit: handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
};

/**
 * The user's server definition (DESIGN: registry): tools, resources, templates and
 * prompts, declared once and served to every revision. It never touches a transport
 * itself; `connect` hands one to the era adapter.
 */
export class McpServer {
  readonly info: Implementation;
  readonly options: Readonly<ServerOptions>;
  readonly tools: FeatureSet<ToolEntry>;
  readonly resources: FeatureSet<ResourceEntry>;
  readonly templates: FeatureSet<TemplateEntry>;
  readonly prompts: FeatureSet<PromptEntry>;
  readonly pageSize: number;
  readonly revisions: readonly Revision[];
  readonly onError: (error: unknown) => void;
  private readonly live = new Set<SessionHooks>();
  private readonly sessionList = new Set<ServerSession>();
  private readonly pendingChanges = new Set<ListKind>();

  constructor(options: ServerOptions) {
    const { name, version, title, description, icons, websiteUrl } = options;
    if (!name || !version) throw new TypeError("A server needs a name and a version");
    this.info = {
      name,
      version,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      ...(icons && { icons }),
      ...(websiteUrl !== undefined && { websiteUrl }),
    };
    this.options = options;
    this.pageSize = options.pageSize ?? 1000;
    if (!(this.pageSize >= 1)) throw new RangeError("pageSize must be at least 1");
    this.revisions = options.revisions ?? REVISIONS;
    this.onError = options.onError ?? defaultOnError;
    this.tools = new FeatureSet(() => this.changed("tools"));
    this.resources = new FeatureSet(() => this.changed("resources"));
    this.templates = new FeatureSet(() => this.changed("resources"));
    this.prompts = new FeatureSet(() => this.changed("prompts"));
  }

  tool<In extends SchemaInput | undefined = undefined, Out extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<In, Out>,
    handler: ToolHandler<In, Out>,
  ): Handle {
    const entry = toolEntry(name, config, handler as ToolHandler<unknown, unknown>);
    return this.register(this.tools, entry, "Tool");
  }

  resource(uri: string, config: ResourceConfig, read: ReadHandler): Handle {
    return this.register(this.resources, resourceEntry(uri, config, read), "Resource");
  }

  resourceTemplate(uriTemplate: string, config: ResourceTemplateConfig, read: TemplateReadHandler): Handle {
    return this.register(this.templates, templateEntry(uriTemplate, config, read), "Resource template");
  }

  prompt<A extends PromptArgs | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): Handle {
    const entry = promptEntry(name, config, handler as PromptHandler<unknown>);
    return this.register(this.prompts, entry, "Prompt");
  }

  /** Sends notifications/resources/updated to every session subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    for (const hooks of this.live) hooks.resourceUpdated(uri);
  }

  /** The capabilities to declare, derived from what is registered plus `options.capabilities`. */
  capabilities(): ServerCapabilities {
    const caps: ServerCapabilities = { logging: {} };
    if (this.tools.size > 0) caps.tools = { listChanged: true };
    if (this.resources.size > 0 || this.templates.size > 0) caps.resources = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0) caps.prompts = { listChanged: true };
    if (this.prompts.size > 0 || this.templates.size > 0) caps.completions = {};
    const extra = this.options.capabilities ?? {};
    for (const [key, value] of Object.entries(extra)) {
      const mine = caps[key];
      caps[key] = typeof mine === "object" && typeof value === "object" ? { ...mine, ...value } : value;
    }
    return caps;
  }

  /** Serves one connection (stdio, in-memory, one HTTP session) until it closes. */
  async connect(transport: Transport, options?: SessionOptions): Promise<ServerSession> {
    const session = await serveSession(this, transport, options);
    this.sessionList.add(session);
    void session.closed.then(() => this.sessionList.delete(session));
    return session;
  }

  /** The sessions currently connected. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.sessionList;
  }

  /** Closes every session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessionList].map((s) => s.close()));
  }

  /** @internal Sessions register here to receive broadcasts. */
  attach(hooks: SessionHooks): () => void {
    this.live.add(hooks);
    return () => this.live.delete(hooks);
  }

  private register<T extends { key: string; enabled: boolean }>(set: FeatureSet<T>, entry: T, what: string): Handle {
    set.add(entry, what);
    return {
      get enabled() {
        return entry.enabled;
      },
      enable: () => {
        if (entry.enabled) return;
        entry.enabled = true;
        set.changed();
      },
      disable: () => {
        if (!entry.enabled) return;
        entry.enabled = false;
        set.changed();
      },
      remove: () => {
        set.remove(entry.key);
      },
    };
  }

  /** Coalesces the changes of one tick into one list_changed per kind. */
  private changed(kind: ListKind): void {
    if (this.live.size === 0) return;
    if (this.pendingChanges.size === 0) {
      queueMicrotask(() => {
        const kinds = [...this.pendingChanges];
        this.pendingChanges.clear();
        for (const hooks of this.live) for (const k of kinds) hooks.listChanged(k);
      });
    }
    this.pendingChanges.add(kind);
  }
}

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}
