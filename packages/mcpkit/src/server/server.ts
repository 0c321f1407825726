import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { mergeCapabilities } from "../protocol/capabilities.js";
import { SKILL_FILE, SKILLS_EXTENSION } from "../protocol/skills.js";
import { TASKS_EXTENSION } from "../protocol/tasks.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import { REVISIONS, type Revision } from "../protocol/versions.js";
import type { SchemaInput } from "../schema/standard.js";
import type { Transport } from "../transports/transport.js";
import { type Mount, mountServer } from "./compose/mount.js";
import { serveConnection } from "./connect.js";
import type { LegacySession, SessionHost } from "./eras/legacy.js";
import { makeKey } from "./eras/modern/request-state.js";
import { type EventBus, InMemoryEventBus, type ListKind, type PublishOptions, type ServerEvent } from "./events.js";
import type { ServerMiddleware } from "./middleware/context.js";
import type { ServerOptions } from "./options.js";
import { FeatureSet } from "./registry/feature-set.js";
import {
  type PromptArgs,
  type PromptConfig,
  type PromptEntry,
  type PromptHandler,
  promptEntry,
} from "./registry/prompt.js";
import {
  type ReadHandler,
  type ResourceConfig,
  type ResourceEntry,
  type ResourceTemplateConfig,
  resourceEntry,
  type TemplateEntry,
  type TemplateReadHandler,
  templateEntry,
} from "./registry/resource.js";
import { type SkillConfig, type SkillDefinition, skillDefinition } from "./registry/skill.js";
import { type ToolConfig, type ToolEntry, type ToolHandler, toolEntry } from "./registry/tool.js";
import type { ServerSession, SessionOptions } from "./session.js";
import { InMemoryTaskStore } from "./tasks/memory-store.js";
import { TaskNode } from "./tasks/node.js";
import { TASK_DEFAULTS, type TaskSettings } from "./tasks/settings.js";

export type { ListKind } from "./events.js";
export type { ServerOptions } from "./options.js";

/** A registered tool, resource, template or prompt: change it at runtime and clients are told. */
export interface Handle {
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  remove(): void;
}

const defaultOnError = (error: unknown) => {
  process.stderr.write(
    `mcpkit: handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
};

/**
 * The user's server definition: tools, resources, templates and prompts, declared once
 * and served to every revision. It never touches a transport itself; `connect` hands one
 * to the era adapters, and the HTTP endpoints call it per session.
 */
export class McpServer implements SessionHost {
  readonly info: Implementation;
  readonly options: Readonly<ServerOptions>;
  readonly tools: FeatureSet<ToolEntry>;
  readonly resources: FeatureSet<ResourceEntry>;
  readonly templates: FeatureSet<TemplateEntry>;
  readonly prompts: FeatureSet<PromptEntry>;
  readonly skills: FeatureSet<SkillDefinition>;
  readonly pageSize: number;
  readonly revisions: readonly Revision[];
  readonly onError: (error: unknown) => void;
  readonly events: EventBus;
  /** Signs multi round-trip request state (see ServerOptions.requestStateKey). */
  readonly requestStateKey: Buffer;
  /** Undefined until middleware is installed, so the plain path checks one field and allocates nothing. */
  middleware: ServerMiddleware[] | undefined;
  private readonly sessionList = new Set<LegacySession>();
  private busSubscription: (() => void) | undefined;
  private capabilityCache: ServerCapabilities | undefined;
  private readonly closers = new Set<(reason: unknown) => void>();
  private readonly pendingChanges = new Set<ListKind>();
  private tasksSettings: TaskSettings | undefined;

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
    this.events = options.eventBus ?? new InMemoryEventBus({ onError: (error) => this.onError(error) });
    this.requestStateKey = makeKey(options.requestStateKey);
    this.middleware = options.middleware && options.middleware.length > 0 ? [...options.middleware] : undefined;
    this.tools = new FeatureSet(() => this.listChanged("tools"));
    this.resources = new FeatureSet(() => this.listChanged("resources"));
    this.templates = new FeatureSet(() => this.listChanged("resources"));
    this.prompts = new FeatureSet(() => this.listChanged("prompts"));
    // The extension defines no list_changed of its own; its files are resources, which do.
    this.skills = new FeatureSet(() => {
      this.capabilityCache = undefined;
    });
  }

  /**
   * Adds middleware around every request and notification from a client, after those
   * already installed (the first added is the outermost). Applies to messages that
   * arrive from now on, on every session. See docs/middleware.md.
   */
  use(...middleware: ServerMiddleware[]): this {
    if (middleware.length > 0) this.middleware = [...(this.middleware ?? []), ...middleware];
    return this;
  }

  /** A tool without an `output` schema: the handler returns a string or a result. */
  tool<In extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<In, undefined>,
    handler: ToolHandler<NoInfer<In>, undefined>,
  ): Handle;
  /** A tool with an `output` schema: the handler returns structuredContent of its type, or `toolError()`. */
  tool<In extends SchemaInput | undefined = undefined, Out extends SchemaInput = SchemaInput>(
    name: string,
    config: ToolConfig<In, Out> & { output: Out },
    handler: ToolHandler<NoInfer<In>, NoInfer<Out>>,
  ): Handle;
  tool(
    name: string,
    config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
    handler: ToolHandler<unknown, unknown>,
  ): Handle {
    return this.register(this.tools, toolEntry(name, config, handler), "Tool");
  }

  /**
   * Where tasks are kept, and their bounds (ServerOptions.tasks); made on first use, which
   * also starts this node's heartbeat when the store is shared by nodes.
   */
  get taskSettings(): TaskSettings {
    if (!this.tasksSettings) {
      const o = this.options.tasks ?? {};
      const now = o.now ?? Date.now;
      const store = o.store ?? new InMemoryTaskStore({ now });
      const node = new TaskNode(store, o.leaseMs ?? TASK_DEFAULTS.leaseMs, (error) => this.onError(error));
      this.tasksSettings = {
        store,
        ttlMs: o.ttlMs === undefined ? TASK_DEFAULTS.ttlMs : o.ttlMs,
        maxTtlMs: o.maxTtlMs === undefined ? TASK_DEFAULTS.maxTtlMs : o.maxTtlMs,
        pollIntervalMs: o.pollIntervalMs ?? TASK_DEFAULTS.pollIntervalMs,
        maxTasksPerClient: o.maxTasksPerClient ?? TASK_DEFAULTS.maxTasksPerClient,
        maxArgumentBytes: o.maxArgumentBytes ?? TASK_DEFAULTS.maxArgumentBytes,
        maxResultBytes: o.maxResultBytes ?? TASK_DEFAULTS.maxResultBytes,
        now,
        node,
      };
      // Another node's dead tasks are failed by any node that serves tasks, busy or not.
      node.start().catch((error: unknown) => this.onError(error));
    }
    return this.tasksSettings;
  }

  resource(uri: string, config: ResourceConfig, read: ReadHandler): Handle {
    return this.register(this.resources, resourceEntry(uri, config, read), "Resource");
  }

  resourceTemplate<const T extends string>(
    uriTemplate: T,
    config: ResourceTemplateConfig<T>,
    read: TemplateReadHandler<T>,
  ): Handle {
    const entry = templateEntry(uriTemplate, config as ResourceTemplateConfig, read as TemplateReadHandler);
    return this.register(this.templates, entry, "Resource template");
  }

  prompt<const A extends PromptArgs | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): Handle {
    const entry = promptEntry(name, config, handler as PromptHandler<unknown>);
    return this.register(this.prompts, entry, "Prompt");
  }

  /**
   * Publishes a skill (the Skills extension, SEP-2640) at `skill://<path>/`: each file is
   * a resource, the skill an entry of skills/list and skills/get with every file's digest
   * and size, and the server declares `io.modelcontextprotocol/skills` with directory reads.
   */
  skill(path: string, config: SkillConfig): Handle {
    const definition = skillDefinition(path, config);
    let skillMd: ResourceEntry | undefined;
    const handles = definition.files.map((file) => {
      const isSkillMd = file.path === SKILL_FILE;
      const resource = resourceEntry(
        file.uri,
        {
          // SEP-2640 §Resource Metadata: SKILL.md is named (and, once read, described) by its
          // frontmatter; the name is the path's last segment, which must equal it.
          name: (isSkillMd ? path : file.path).split("/").at(-1) as string,
          mimeType: file.mimeType,
          size: typeof file.content === "string" ? Buffer.byteLength(file.content) : file.content.byteLength,
          enabled: definition.enabled,
        },
        () => file.content,
      );
      if (isSkillMd) skillMd = resource;
      return this.register(this.resources, resource, "Resource");
    });
    handles.push(this.register(this.skills, definition, "Skill"));
    definition.ready.then(
      () => {
        if (skillMd) skillMd.definition.description = definition.entry.frontmatter.description;
      },
      (error: unknown) => {
        // A SKILL.md that does not name and describe the skill is not served.
        for (const h of handles) h.remove();
        this.onError(error);
      },
    );
    return {
      get enabled() {
        return definition.enabled;
      },
      enable: () => {
        for (const h of handles) h.enable();
      },
      disable: () => {
        for (const h of handles) h.disable();
      },
      remove: () => {
        for (const h of handles) h.remove();
      },
    };
  }

  /**
   * Serves another server's tools, prompts, resources and templates from this one, under
   * `prefix`: tools and prompts as `prefix_name`, URIs as `scheme://prefix/rest` (or
   * `prefix+uri` for URIs without an authority); the empty prefix keeps its names and URIs
   * as they are. Its changes and resource updates reach this server's clients; `unmount()`
   * takes it out again.
   */
  mount(prefix: string, server: McpServer): Mount {
    return mountServer(this, prefix, server);
  }

  /**
   * Tells every session and subscription stream watching `uri` that it changed
   * (notifications/resources/updated). `options.key` names the change, for one that every
   * node of a cluster notices (a file they share): it then reaches each subscriber once.
   */
  resourceUpdated(uri: string, options?: PublishOptions): void {
    this.publish({ type: "resource_updated", uri }, options);
  }

  /** A bus that fails (Redis unreachable) is reported to onError, never left to reject unhandled. */
  private publish(event: ServerEvent, options?: PublishOptions): void {
    try {
      const published = options ? this.events.publish(event, options) : this.events.publish(event);
      if (published !== undefined) Promise.resolve(published).catch((error: unknown) => this.onError(error));
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * What this server declares, derived from what is registered. One object, shared by every
   * session until a definition changes: treat it as read-only.
   */
  capabilities(): ServerCapabilities {
    this.capabilityCache ??= this.deriveCapabilities();
    return this.capabilityCache;
  }

  private deriveCapabilities(): ServerCapabilities {
    const caps: ServerCapabilities = { logging: {} };
    if (this.tools.size > 0) caps.tools = { listChanged: true };
    if (this.resources.size > 0 || this.templates.size > 0) caps.resources = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0) caps.prompts = { listChanged: true };
    if (this.prompts.size > 0 || this.templates.size > 0) caps.completions = {};
    if (this.skills.enabled().length > 0) caps.extensions = { [SKILLS_EXTENSION]: { directoryRead: true } };
    if (this.tools.enabled().some((tool) => tool.task)) caps.extensions = { ...caps.extensions, [TASKS_EXTENSION]: {} };
    return mergeCapabilities(caps, this.options.capabilities);
  }

  /** Serves one connection (stdio, in-memory, one HTTP session) until it closes. */
  async connect(transport: Transport, options?: SessionOptions): Promise<ServerSession> {
    return serveConnection(this, transport, options);
  }

  /** The sessions currently connected. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.sessionList;
  }

  /**
   * Fails the tasks this node is running (their requesters see why), ends subscription
   * streams gracefully, then closes every session.
   */
  async close(): Promise<void> {
    await this.tasksSettings?.node.stop("The server shut down before the task finished");
    const stopping = new McpError(
      ErrorCode.InternalError,
      "The server is shutting down: this request was stopped before it finished; send it again later",
      { reason: "shutting-down" },
    );
    for (const session of this.sessionList) session.stopRequests(stopping);
    for (const close of [...this.closers]) close(stopping);
    // Let the answers of the requests just ended reach the transports before the sessions close.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([...this.sessionList].map((s) => s.close()));
  }

  /**
   * @internal A session joins the server: one subscription to the event bus serves every
   * session, each told of list changes and resource updates.
   */
  attachSession(session: LegacySession): void {
    this.busSubscription ??= this.events.subscribe((event, key) => {
      for (const s of this.sessionList) {
        try {
          s.serverEvent(event, key);
        } catch (error) {
          this.onError(error); // one session's failure must not starve the others
        }
      }
    });
    this.sessionList.add(session);
  }

  /** @internal The session closed. */
  detachSession(session: LegacySession): void {
    this.sessionList.delete(session);
  }

  /**
   * @internal Requests that outlive a session's bookkeeping register how to end them on
   * close(): subscriptions/listen (gracefully), a 2026-07-28 request over HTTP (with `reason`).
   */
  onClose(close: (reason: unknown) => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
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

  /**
   * Tells clients that a list changed for reasons the server cannot see (a resource list
   * backed by files, say). Changes of one tick are sent as one list_changed per kind;
   * registering, enabling and removing definitions calls this already. A change named by
   * `options.key` (one every node of a cluster notices) is sent at once, and once.
   */
  listChanged(kind: ListKind, options?: PublishOptions): void {
    this.capabilityCache = undefined;
    if (options?.key !== undefined) {
      this.publish({ type: "list_changed", kind }, options);
      return;
    }
    if (this.pendingChanges.size === 0) {
      queueMicrotask(() => {
        const kinds = [...this.pendingChanges];
        this.pendingChanges.clear();
        for (const k of kinds) this.publish({ type: "list_changed", kind: k });
      });
    }
    this.pendingChanges.add(kind);
  }
}

export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}
