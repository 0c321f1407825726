import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { implementationOf } from "../protocol/implementation.js";
import { mergeCapabilities } from "../protocol/merge-capabilities.js";
import { SKILLS_EXTENSION } from "../protocol/skills.js";
import { TASKS_EXTENSION } from "../protocol/tasks.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import { REVISIONS, type Revision } from "../protocol/versions.js";
import type { LegacySession, SessionHost } from "./eras/legacy/session.js";
import { makeKey } from "./eras/modern/request-state.js";
import { type EventBus, InMemoryEventBus, type ListKind, type PublishOptions, type ServerEvent } from "./events.js";
import type { ServerMiddleware } from "./middleware/message-context.js";
import { FeatureSet } from "./registry/feature-set.js";
import type { PromptEntry } from "./registry/prompt.js";
import type { ResourceEntry, TemplateEntry } from "./registry/resource.js";
import type { SkillDefinition } from "./registry/skill.js";
import type { ToolEntry } from "./registry/tool.js";
import type { ServerOptions } from "./server-options.js";
import type { ServerSession } from "./server-session.js";
import { InMemoryTaskStore } from "./tasks/memory-task-store.js";
import { TASK_DEFAULTS, type TaskSettings } from "./tasks/settings.js";
import { TaskNode } from "./tasks/task-node.js";

// Not only handlers' failures reach onError (a transport's, a store's, a peer's error
// answer), so the default names none of them: each error says what failed.
const defaultOnError = (error: unknown) => {
  process.stderr.write(`mcpkit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
};

/**
 * What `McpServer` holds and serves from, behind its public methods: the registries, the
 * options as the era adapters read them, the sessions' fan-out and the work to end on
 * close(). Library code reaches it with `definitionOf(server)`; users never see it, so
 * nothing is registered without `tool()`'s checks.
 */
export class ServerDefinition implements SessionHost {
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
  middleware: readonly ServerMiddleware[] | undefined;
  private readonly sessionList = new Set<LegacySession>();
  private busSubscription: (() => void) | undefined;
  private capabilityCache: ServerCapabilities | undefined;
  private readonly closers = new Set<(reason: unknown) => void>();
  private readonly pendingChanges = new Set<ListKind>();
  private tasksSettings: TaskSettings | undefined;
  /** Capabilities fixed from outside (a proxy declares its upstream's), in place of the derived ones. */
  private declared: ServerCapabilities | undefined;

  constructor(options: ServerOptions) {
    if (!options.name || !options.version) throw new TypeError("A server needs a name and a version");
    this.info = implementationOf(options);
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

  /** Middleware added after what is installed: applies to messages that arrive from now on. */
  use(middleware: readonly ServerMiddleware[]): void {
    if (middleware.length > 0) this.middleware = [...(this.middleware ?? []), ...middleware];
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

  /** Tells every session and subscription stream watching `uri` that it changed (see McpServer). */
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

  /** What this server declares, derived from what is registered; shared until a definition changes. */
  capabilities(): ServerCapabilities {
    if (this.declared) return this.declared;
    this.capabilityCache ??= this.deriveCapabilities();
    return this.capabilityCache;
  }

  /** Declares exactly `capabilities`, whatever is registered (a proxy declares its upstream's). */
  declare(capabilities: ServerCapabilities): void {
    this.declared = capabilities;
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

  /** The sessions currently connected. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.sessionList;
  }

  /** See McpServer.close(). */
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
   * A session joins the server: one subscription to the event bus serves every session,
   * each told of list changes and resource updates.
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

  /** The session closed. */
  detachSession(session: LegacySession): void {
    this.sessionList.delete(session);
  }

  /**
   * Requests that outlive a session's bookkeeping register how to end them on close():
   * subscriptions/listen (gracefully), a 2026-07-28 request over HTTP (with `reason`).
   */
  onClose(close: (reason: unknown) => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /**
   * Tells clients that a list changed. Changes of one tick are sent as one list_changed
   * per kind; registering, enabling and removing definitions calls this already. A change
   * named by `options.key` is sent at once, and once (see McpServer).
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
