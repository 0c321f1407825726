import type { StandardSchemaV1 } from "@standard-schema/spec";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcNotification } from "../jsonrpc/types.js";
import { mergeCapabilities } from "../protocol/capabilities.js";
import { SKILLS_EXTENSION, type SkillEntry } from "../protocol/skills.js";
import type { WireTask } from "../protocol/tasks.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../protocol/types/common.js";
import type {
  CallToolResult,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  Tool,
} from "../protocol/types/features.js";
import type { DiscoverResult, SubscriptionFilter } from "../protocol/types/modern.js";
import type { Revision } from "../protocol/versions.js";
import { runChain } from "../session/middleware.js";
import type { Transport } from "../transports/transport.js";
import { type Answerer, answerServerRequest, type ClientRequestContext } from "./answer.js";
import { connectEra } from "./connect.js";
import type { CallOptions, ClientEra, EraHost, ServerDescription } from "./eras/era.js";
import { type NotificationListener, NotificationListeners } from "./listeners.js";
import { ClientLists } from "./lists.js";
import {
  type ClientFacts,
  type ClientMiddleware,
  type ClientMiddlewareContext,
  type ClientSession,
  clientMessage,
  openSession,
} from "./middleware.js";
import { type ClientOptions, implementationOf } from "./options.js";
import { OutputSchemas } from "./output-schemas.js";
import { getSkill, type LoadedSkill, type LoadSkillOptions, listSkills, loadSkill, type SkillsPeer } from "./skills.js";
import type { ListenOptions, Subscription, SubscriptionListener } from "./subscription.js";
import { createdTask, type TaskHost, ToolTask } from "./tasks.js";
import { checkStructured, type ToolResultOf } from "./typed-result.js";

export type { ClientRequestContext } from "./answer.js";
export type { CallOptions, ServerDescription } from "./eras/era.js";
export type { ClientMiddleware, ClientMiddlewareContext } from "./middleware.js";
export type { ClientOptions } from "./options.js";

const notConnected = () => new Error("The client is not connected: call connect first");

/**
 * An MCP client over any transport. It speaks 2026-07-28 to servers that do (per-request
 * `_meta`, multi round-trip requests, subscriptions/listen, caching hints) and the
 * `initialize` handshake to older ones, behind one set of typed calls: each era is a
 * ClientEra (client/eras/); this class holds what both share (list caches, listeners,
 * answers to what servers ask of clients).
 */
export class Client {
  readonly options: ClientOptions;
  private era: ClientEra | undefined;
  private host: EraHost | undefined;
  private roots: Root[];
  /** Undefined until middleware is installed, so the plain path checks one field and allocates nothing. */
  private middleware: ClientMiddleware[] | undefined;
  /** The connection as middleware sees it. */
  private session: (ClientSession & { end(reason?: Error): void }) | undefined;
  private readonly listeners: NotificationListeners;
  /** The outputSchemas of listed tools, to check results against (undefined when turned off). */
  private readonly outputs: OutputSchemas | undefined;
  private readonly lists = new ClientLists(
    (method, params) => this.request(method, params),
    () => this.era,
    (tools) => this.outputs?.note(tools),
  );

  constructor(options: ClientOptions) {
    if (!options.name || !options.version) throw new TypeError("A client needs a name and a version");
    this.options = options;
    this.roots = options.roots ?? [];
    this.middleware = options.middleware && options.middleware.length > 0 ? [...options.middleware] : undefined;
    this.listeners = new NotificationListeners(options.onError);
    this.outputs = options.validateToolOutput === false ? undefined : new OutputSchemas(options.onError);
  }

  /** The capabilities this client declares (in initialize, or in every request's `_meta`). */
  get capabilities(): ClientCapabilities {
    return this.capabilitiesFor(this.era?.kind === "modern");
  }

  private capabilitiesFor(modern: boolean): ClientCapabilities {
    const caps: ClientCapabilities = {};
    if (this.options.sampling) caps.sampling = {};
    if (this.options.elicitation) caps.elicitation = { form: {} };
    // 2026-07-28 has no notifications/roots/list_changed, so no listChanged to declare.
    if (this.options.roots || this.options.listRoots) caps.roots = modern ? {} : { listChanged: true };
    return mergeCapabilities(caps, this.options.capabilities);
  }

  /**
   * Starts the transport and learns the server's era: a `server/discover` probe first
   * (basic/versioning §Backward Compatibility), then, for a legacy server, the initialize
   * handshake (basic/lifecycle).
   */
  async connect(transport: Transport): Promise<ServerDescription> {
    if (this.host && !this.host.connection.isClosed) throw new Error("This client is already connected");
    this.era = undefined;
    this.lists.invalidateAll();
    this.outputs?.forget();
    // One record per connection (not per call), so middleware added later sees it too.
    const session = openSession();
    const connected = await connectEra(transport, {
      options: this.options,
      clientInfo: implementationOf(this.options),
      tools: this.lists.tools,
      capabilities: (modern) => this.capabilitiesFor(modern),
      answerer: () => this.answerer,
      wantsLogs: () => this.listeners.has("notifications/message"),
      invalidateCaches: () => this.lists.invalidateAll(),
      onRequest: (method, params, ctx) => this.answer(method, params, ctx),
      onNotification: (notification) => this.onNotification(notification),
      rules: () => this.era?.rules,
      onClose: (reason) => {
        this.era?.closed(reason);
        session.end(reason);
        this.options.onClose?.(reason);
      },
    });
    this.session = session;
    this.host = connected.host;
    this.era = connected.era;
    return connected.era.describe();
  }

  /** The server's name and version: from initialize, or from the `_meta` of server/discover and later results. */
  get serverInfo(): Implementation | undefined {
    return this.era?.serverInfo;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.era?.serverCapabilities;
  }
  get instructions(): string | undefined {
    return this.era?.instructions;
  }
  get protocolVersion(): Revision | undefined {
    return this.era?.protocolVersion;
  }
  /** The server/discover answer, on a 2026-07-28 server. */
  get discoverResult(): DiscoverResult | undefined {
    return this.era?.kind === "modern" ? this.era.describe().discover : undefined;
  }
  /** "modern" (2026-07-28) or "legacy" (the initialize handshake), once connected. */
  get protocolEra(): "modern" | "legacy" | undefined {
    return this.era?.kind;
  }

  /**
   * Sends any request; the typed methods below are built on it. On a 2026-07-28 server
   * the `_meta` envelope is added, input-required results are answered and retried until
   * complete, and a lost HTTP stream or a version the server no longer takes is retried once.
   */
  request<T extends object = JsonObject>(method: string, params?: object, options?: CallOptions): Promise<T> {
    const era = this.era;
    if (!era) return Promise.reject(notConnected());
    if (this.middleware === undefined) return era.request<T>(method, params, options);
    return this.outbound(method, params as JsonObject | undefined, options, (ctx) =>
      era.request(ctx.method, ctx.params, ctx.options),
    ) as Promise<object> as Promise<T>;
  }

  /**
   * Adds middleware around every call to the server and every request or notification
   * from it, after those already installed (the first added is the outermost). See
   * docs/middleware.md.
   */
  use(...middleware: ClientMiddleware[]): this {
    if (middleware.length > 0) this.middleware = [...(this.middleware ?? []), ...middleware];
    return this;
  }

  private facts(): ClientFacts {
    const era = this.era;
    return {
      era: era?.kind,
      revision: era?.protocolVersion,
      sessionId: this.host?.connection.transport.sessionId,
      server: era?.serverInfo,
      transport: this.host?.connection.transport.binding,
      session: this.session,
    };
  }

  private outbound(
    method: string,
    params: JsonObject | undefined,
    options: CallOptions | undefined,
    terminal: (ctx: ClientMiddlewareContext) => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const ctx = clientMessage("request", "outbound", method, params, undefined, options, undefined, this.facts());
    return runChain(this.middleware ?? [], ctx, terminal);
  }

  /** A request of the server (or an input request of a modern one), through the middleware. */
  private answer(method: string, params: JsonObject, rctx: ClientRequestContext): Promise<JsonObject> {
    if (this.middleware === undefined) return answerServerRequest(method, params, rctx, this.answerer);
    const ctx = clientMessage(
      "request",
      "inbound",
      method,
      params,
      // An input request of a multi round-trip request has a key, not a JSON-RPC id.
      rctx.inputKey === undefined ? rctx.requestId : undefined,
      undefined,
      () => rctx.signal,
      this.facts(),
    );
    return runChain(this.middleware, ctx, (c) => answerServerRequest(c.method, c.params ?? {}, rctx, this.answerer));
  }

  private get answerer(): Answerer {
    return { handlers: this.options, capabilities: this.capabilities, roots: this.roots };
  }

  /** Listens for a notification method; returns a function that stops listening. */
  on(method: string, listener: NotificationListener): () => void {
    return this.listeners.add(method, listener);
  }

  /**
   * basic/patterns/subscriptions: opens a `subscriptions/listen` stream for the change
   * notifications in `filter` and resolves once the server acknowledged it; `listener`
   * gets each notification (they also reach `on()` listeners and refresh the list caches).
   * On a legacy server the same API is built on its list_changed notifications and
   * resources/subscribe.
   */
  listen(filter: SubscriptionFilter, listener: SubscriptionListener, options?: ListenOptions): Promise<Subscription> {
    return this.era ? this.era.listen(filter, listener, options) : Promise.reject(notConnected());
  }

  /** basic/utilities/ping; 2026-07-28 has no ping, so server/discover answers instead. */
  async ping(options?: CallOptions): Promise<void> {
    await this.connected().ping(options);
  }

  /** One page of tools. On Streamable HTTP, tools with invalid x-mcp-header annotations are left out. */
  async listTools(cursor?: string, options?: CallOptions): Promise<ListToolsResult> {
    const era = this.require("tools");
    const page = await this.request<ListToolsResult>(
      "tools/list",
      cursor === undefined ? undefined : { cursor },
      options,
    );
    const tools = era.acceptTools(page.tools ?? [], false);
    this.outputs?.note(tools);
    return { ...page, tools };
  }

  /** Every tool, following cursors; cached until the server says the list changed or its ttlMs ran out. */
  tools(): Promise<Tool[]> {
    return this.lists.tools.get();
  }

  /**
   * Calls a tool (on Streamable HTTP with a 2026-07-28 server, with its `Mcp-Param-*`
   * headers). If the server runs it as a task (a client that declares the Tasks extension),
   * this waits for the task, answering what it asks, and gives its result. When the client
   * has listed the tool and it declares an outputSchema, a result that breaks it (no
   * structuredContent, or content that does not match) is a ToolOutputError (server/tools
   * §Output Schema); turn that off with `validateToolOutput: false`. With `output` (a
   * Standard Schema for the tool's structuredContent, e.g. the one the server was written
   * with), the result's structuredContent is checked against it and typed by it.
   */
  async callTool<S extends StandardSchemaV1 | undefined = undefined>(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallOptions & { output?: S },
  ): Promise<ToolResultOf<S>> {
    const { output, ...rest } = options ?? {};
    const callOptions = options && rest;
    const era = this.require("tools");
    let result: CallToolResult;
    if (this.middleware === undefined) result = await era.callTool(name, args, callOptions);
    else {
      const answer = await this.outbound("tools/call", { name, arguments: args }, callOptions, (ctx) => {
        const p = ctx.params ?? {};
        const called = era.callTool(p.name as string, (p.arguments ?? {}) as Record<string, unknown>, ctx.options);
        return called as unknown as Promise<JsonObject>;
      });
      result = answer as unknown as CallToolResult;
    }
    const created = options?.asTask || era.kind === "modern" ? createdTask(result as unknown as JsonObject) : undefined;
    if (created) {
      result = await this.task(created.taskId, created).result(options?.signal ? { signal: options.signal } : {});
    }
    const checked = this.outputs ? await this.outputs.check(name, result) : result;
    return (output ? await checkStructured(name, checked, output) : checked) as ToolResultOf<S>;
  }

  /**
   * Calls a tool and lets the server run it as a task (tasks, docs/tasks.md): resolves
   * with the task's handle once the server created it, or with the result when the server
   * answered at once (or cannot run this tool as a task). `ttlMs` asks a 2025-11-25
   * server to keep the task that long.
   */
  async callToolAsTask(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallOptions & { ttlMs?: number },
  ): Promise<{ task: ToolTask; result?: undefined } | { result: CallToolResult; task?: undefined }> {
    const era = this.require("tools");
    const { ttlMs, ...rest } = options ?? {};
    const asTask = (await this.mayRunAsTask(era, name)) ? { ...(ttlMs !== undefined && { ttlMs }) } : undefined;
    const result = await era.callTool(name, args, asTask ? { ...rest, asTask } : rest);
    const created = asTask ? createdTask(result as unknown as JsonObject) : undefined;
    return created ? { task: this.task(created.taskId, created) } : { result };
  }

  /** A task by id, to poll, answer, cancel or wait for: one created earlier, by this client or another. */
  task(taskId: string, seen?: WireTask): ToolTask {
    this.connected();
    return new ToolTask(this.taskHost, taskId, seen);
  }

  /** 2025-11-25: only tools the server lets run as tasks may be asked to (§Tool-Level Negotiation). */
  private async mayRunAsTask(era: ClientEra, name: string): Promise<boolean> {
    if (era.kind === "modern") return true;
    const caps = era.serverCapabilities.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
    if (!caps?.requests?.tools?.call) return false;
    const support = (await this.tools()).find((t) => t.name === name)?.execution?.taskSupport;
    return support === "optional" || support === "required";
  }

  private get taskHost(): TaskHost {
    return {
      era: this.connected().kind,
      // On 2026-07-28 every tasks/* request declares the extension.
      request: (method, params, options) => this.request(method, params, { ...options, asTask: {} }),
      answer: (key, request, signal) =>
        answerServerRequest(
          request.method,
          (request.params ?? {}) as JsonObject,
          { signal: signal ?? new AbortController().signal, requestId: key, inputKey: key },
          this.answerer,
        ),
      on: (method, listener) => this.on(method, (params) => listener(params)),
      listen: async (taskId, onChange) => {
        if (this.connected().kind !== "modern") return undefined;
        const filter = { taskIds: [taskId] } as SubscriptionFilter;
        return this.listen(filter, (n) => {
          if (n.method === "notifications/tasks") onChange();
        });
      },
    };
  }

  listResources(cursor?: string, options?: CallOptions): Promise<ListResourcesResult> {
    this.require("resources");
    return this.request("resources/list", cursor === undefined ? undefined : { cursor }, options);
  }

  resources(): Promise<Resource[]> {
    return this.lists.resources.get();
  }

  listResourceTemplates(cursor?: string, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    this.require("resources");
    return this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options);
  }

  resourceTemplates(): Promise<ResourceTemplate[]> {
    return this.lists.resourceTemplates.get();
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    this.require("resources");
    return this.request("resources/read", { uri }, options);
  }

  /** Every skill the server lists (the Skills extension's skills/list); fetches no file. */
  async skills(): Promise<SkillEntry[]> {
    return listSkills(this.skillsPeer());
  }

  /** One skill's current entry (skills/get), whether or not the server lists it. */
  async getSkill(uri: string): Promise<SkillEntry> {
    return getSkill(this.skillsPeer(), uri);
  }

  /**
   * Loads a skill: its SKILL.md is fetched now and verified against the entry (size,
   * digest, frontmatter); other files are fetched and verified when read. A mismatch is a
   * SkillVerificationError and the content is not returned.
   */
  async loadSkill(skill: SkillEntry | string, options?: LoadSkillOptions): Promise<LoadedSkill> {
    return loadSkill(this.skillsPeer(), skill, options);
  }

  private skillsPeer(): SkillsPeer {
    if (!this.connected().serverCapabilities.extensions?.[SKILLS_EXTENSION]) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The server does not offer skills (no ${SKILLS_EXTENSION} extension)`,
      );
    }
    return { request: (method, params) => this.request(method, params), readResource: (uri) => this.readResource(uri) };
  }

  /**
   * resources/subscribe. A 2026-07-28 server has no such method: the client keeps one
   * subscriptions/listen stream for every subscribed URI instead, and
   * notifications/resources/updated reaches `on()` listeners just the same.
   */
  async subscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.require("resources", "subscribe").subscribe(uri, options);
  }

  async unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    await this.require("resources", "subscribe").unsubscribe(uri, options);
  }

  listPrompts(cursor?: string, options?: CallOptions): Promise<ListPromptsResult> {
    this.require("prompts");
    return this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options);
  }

  prompts(): Promise<Prompt[]> {
    return this.lists.prompts.get();
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: CallOptions): Promise<GetPromptResult> {
    this.require("prompts");
    return this.request("prompts/get", { name, arguments: args }, options);
  }

  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    // 2024-11-05 had completion without a capability flag, and `context` arrived in 2025-06-18.
    if (this.protocolVersion !== "2024-11-05") this.require("completions");
    const { context, ...rest } = params;
    const sent = context && this.era?.rules?.completionContext ? params : rest;
    return this.request("completion/complete", sent, options);
  }

  /**
   * logging/setLevel. 2026-07-28 removed that method: the level is kept here and sent in
   * the `_meta` of every later request (server/utilities/logging).
   */
  async setLogLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    await this.require("logging").setLogLevel(level, options);
  }

  /** Replaces the roots; a legacy server is told (notifications/roots/list_changed), a modern one asks when it needs them. */
  setRoots(roots: Root[]): void {
    this.roots = roots;
    this.era?.rootsChanged();
  }

  async close(): Promise<void> {
    await this.host?.connection.close();
  }

  /** True between a finished handshake (or discovery) and the connection closing. */
  get isConnected(): boolean {
    return this.host !== undefined && !this.host.connection.isClosed && this.era !== undefined;
  }

  private connected(): ClientEra {
    if (!this.era) throw notConnected();
    return this.era;
  }

  /** The era, once the server declared `capability` (and `flag` in it); -32601 otherwise. */
  private require(capability: keyof ServerCapabilities, flag?: string): ClientEra {
    const era = this.connected();
    const value = era.serverCapabilities[capability] as Record<string, unknown> | undefined;
    if (!value || (flag && !value[flag])) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The server does not offer ${flag ? `${capability}.${flag}` : capability} (not in its declared capabilities)`,
      );
    }
    return era;
  }

  private onNotification(notification: JsonRpcNotification): void {
    if (this.middleware === undefined) {
      this.deliver(notification);
      return;
    }
    const ctx = clientMessage(
      "notification",
      "inbound",
      notification.method,
      notification.params,
      undefined,
      undefined,
      undefined,
      this.facts(),
    );
    runChain(this.middleware, ctx, (c) => {
      this.deliver(c.params === notification.params ? notification : { ...notification, params: c.params });
      return Promise.resolve({});
    }).catch((error: unknown) => this.options.onError?.(error));
  }

  private deliver(notification: JsonRpcNotification): void {
    if (notification.method === "notifications/tools/list_changed") this.outputs?.forget();
    this.listeners.guard(() => this.era?.route(notification));
    this.lists.noteChange(notification);
    this.listeners.deliver(notification);
  }
}
