import { randomUUID } from "node:crypto";
import type { InboundRequest } from "../../connection/inbound-request.js";
import { runChain } from "../../connection/middleware-chain.js";
import type { RequestKey } from "../../connection/request-values.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { answerAs, asJson } from "../../jsonrpc/message.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { TRACE_KEYS } from "../../protocol/meta.js";
import { relatedTaskMeta } from "../../protocol/tasks.js";
import { LOG_LEVELS, type LogLevel, type Meta } from "../../protocol/types/common.js";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  Root,
} from "../../protocol/types/features.js";
import type { StandardSchemaV1 } from "../../schema/standard.js";
import type { Context, ElicitFormRequest, ElicitOutcome, ElicitUrlRequest, InputOptions } from "../handler-context.js";
import { outboundRequest, type ServerMiddleware } from "../middleware/message-context.js";
import type { Registry } from "../registry/registry.js";
import type { TaskRun } from "../tasks/run.js";
import { type ClientPeer, InputResponseError } from "./client-peer.js";
import { fitFormToRevision, formSchema } from "./elicitation-form.js";

const levelIndex = new Map<string, number>(LOG_LEVELS.map((l, i) => [l, i]));

export function shouldLog(level: LogLevel, minimum: LogLevel | undefined): boolean {
  return minimum === undefined || (levelIndex.get(level) ?? 0) >= (levelIndex.get(minimum) ?? 0);
}

/** The client answered a request made from a handler with an error (or did not answer in time). */
export class ClientRequestError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(method: string, cause: McpError) {
    super(`The client could not complete ${method}: ${cause.message}`, { cause });
    this.name = "ClientRequestError";
    this.code = cause.code;
    this.data = cause.data;
  }
}

/**
 * The client accepted an elicitation with content that does not match the schema asked
 * for (client/elicitation §Security: servers validate what they receive). The client's
 * fault: a tool reports it as an isError result, a prompt as -32602 with this message.
 */
export class ElicitationAnswerError extends Error {
  constructor(problem: string) {
    super(`The client's elicitation answer does not match the schema: ${problem}`);
    this.name = "ElicitationAnswerError";
  }
}

/** 2026-07-28 has a code for it (MissingRequiredClientCapability); earlier revisions use -32600. */
const missingCapability = (rules: { modern: boolean }, what: string, capability: JsonObject) =>
  new McpError(
    rules.modern ? ErrorCode.MissingRequiredClientCapability : ErrorCode.InvalidRequest,
    `This needs the client's ${what} capability, which the client did not declare`,
    { requiredCapabilities: capability },
  );

/** The context for one request; lazily allocates what a handler does not use. */
export class RequestContext implements Context {
  private readonly peer: ClientPeer;
  private readonly inbound: InboundRequest;
  private readonly server: Registry;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private run: TaskRun | undefined;

  constructor(peer: ClientPeer, inbound: InboundRequest, server: Registry) {
    this.peer = peer;
    this.inbound = inbound;
    this.server = server;
  }

  /** @internal The call may run as a task (server/tasks/start.ts). */
  bindTask(run: TaskRun): void {
    this.run = run;
  }

  /** The task, once the call runs as one. */
  private get running(): TaskRun | undefined {
    return this.run?.started ? this.run : undefined;
  }

  get task() {
    const run = this.running;
    return run ? { id: run.taskId } : undefined;
  }

  startTask(): Promise<void> {
    return this.run ? this.run.start() : Promise.resolve();
  }

  status(message: string): void {
    this.running?.status(message);
  }

  get signal() {
    return this.running?.signal ?? this.inbound.signal;
  }
  get requestId() {
    return this.inbound.id;
  }
  get method() {
    return this.inbound.method;
  }
  get revision() {
    return this.peer.rules.revision;
  }
  get sessionId() {
    return this.peer.sessionId;
  }
  get session() {
    return this.peer.session;
  }
  get client() {
    return { info: this.peer.clientInfo, capabilities: this.peer.clientCapabilities };
  }
  get meta() {
    return this.inbound.params?._meta as Meta | undefined;
  }
  get auth() {
    return this.inbound.info?.auth;
  }
  get trace() {
    const meta = this.meta ?? {};
    const trace: { traceparent?: string; tracestate?: string; baggage?: string } = {};
    for (const key of TRACE_KEYS) if (typeof meta[key] === "string") trace[key] = meta[key] as string;
    return trace;
  }

  progress(progress: number, total?: number, message?: string): void {
    const run = this.running;
    if (run) {
      if (!(progress > this.lastProgress)) return;
      run.status(message ?? (total === undefined ? `${progress}` : `${progress}/${total}`));
      // 2025-11-25 §Task Progress Notifications: the request's token stays valid; 2026-07-28 has none for tasks.
      if (this.peer.rules.tasks !== "legacy") {
        this.lastProgress = progress;
        return;
      }
    }
    const token = this.inbound.progressToken;
    if (token === undefined || !(progress > this.lastProgress) || this.inbound.cancelled) return;
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    // The message field arrived in 2025-03-26.
    if (message !== undefined && this.peer.rules.revision !== "2024-11-05") params.message = message;
    this.notifyRelated("notifications/progress", params);
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    if (!this.peer.wantsLog(level) || this.inbound.cancelled) return;
    // The Tasks extension: no logs for tasks (their request has been answered).
    if (this.running && this.peer.rules.tasks !== "legacy") return;
    const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
    this.notifyRelated("notifications/message", params);
  }

  elicit<S extends StandardSchemaV1 | ElicitFormParams["requestedSchema"]>(
    request: ElicitFormRequest<S>,
  ): Promise<ElicitOutcome<S>>;
  elicit(request: ElicitUrlRequest): Promise<ElicitResult & { elicitationId: string }>;
  elicit(
    request: ElicitFormRequest<StandardSchemaV1 | ElicitFormParams["requestedSchema"]> | ElicitUrlRequest,
  ): Promise<unknown> {
    return this.doElicit(request);
  }

  private async doElicit(
    request: ElicitFormRequest<StandardSchemaV1 | ElicitFormParams["requestedSchema"]> | ElicitUrlRequest,
  ): Promise<ElicitResult> {
    const caps = this.peer.clientCapabilities.elicitation;
    if (!this.peer.rules.methods.has("elicitation/create"))
      throw missingCapability(this.peer.rules, "elicitation (the negotiated revision has none)", { elicitation: {} });
    if (request.mode === "url") {
      if (!this.peer.rules.urlElicitation)
        throw missingCapability(this.peer.rules, `URL-mode elicitation (revision ${this.revision} has none)`, {
          elicitation: { url: {} },
        });
      if (!caps?.url) throw missingCapability(this.peer.rules, "URL-mode elicitation", { elicitation: { url: {} } });
      const elicitationId = request.elicitationId ?? randomUUID();
      const params: ElicitUrlParams = { mode: "url", message: request.message, url: request.url, elicitationId };
      const result = await this.send<ElicitResult>("elicitation/create", params);
      return { ...result, elicitationId } as ElicitResult;
    }
    // An empty elicitation object means form mode (client/elicitation §Capabilities).
    if (!caps || (caps.url && !caps.form))
      throw missingCapability(this.peer.rules, "form elicitation", { elicitation: { form: {} } });
    const { requestedSchema, validate } = formSchema(request.schema);
    const params: JsonObject = {
      message: request.message,
      requestedSchema: fitFormToRevision(requestedSchema, this.peer.rules),
    };
    // The mode field arrived with URL mode in 2025-11-25; older clients know only forms.
    if (this.peer.rules.urlElicitation) params.mode = "form";
    const result = await this.send<ElicitResult>("elicitation/create", params, request.key);
    if (result.action === "accept") {
      const checked = await validate(result.content ?? {});
      if (!checked.ok) throw new ElicitationAnswerError(checked.message);
      return { ...result, content: checked.value as ElicitResult["content"] };
    }
    return result;
  }

  elicitationComplete(elicitationId: string): void {
    if (!this.peer.rules.methods.has("notifications/elicitation/complete")) return;
    this.peer.notify("notifications/elicitation/complete", { elicitationId });
  }

  async sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult> {
    const caps = this.peer.clientCapabilities.sampling;
    if (!caps) throw missingCapability(this.peer.rules, "sampling", { sampling: {} });
    if (params.tools || params.toolChoice) {
      if (!this.peer.rules.samplingTools)
        throw missingCapability(this.peer.rules, `sampling tool use (revision ${this.revision} has none)`, {
          sampling: { tools: {} },
        });
      if (!caps.tools) throw missingCapability(this.peer.rules, "sampling tool use", { sampling: { tools: {} } });
    }
    if (params.includeContext && params.includeContext !== "none" && !caps.context)
      throw missingCapability(this.peer.rules, "sampling context inclusion", { sampling: { context: {} } });
    return this.send<CreateMessageResult>("sampling/createMessage", params, options?.key);
  }

  async listRoots(options?: InputOptions): Promise<Root[]> {
    if (!this.peer.clientCapabilities.roots) throw missingCapability(this.peer.rules, "roots", { roots: {} });
    const result = await this.send<{ roots?: unknown }>("roots/list", {}, options?.key);
    return Array.isArray(result.roots) ? (result.roots as Root[]) : [];
  }

  get<T>(key: RequestKey<T>): T | undefined {
    return this.inbound.values?.get(key);
  }

  closeStream(retryMs?: number): boolean {
    const info = this.inbound.info;
    if (!info?.closeStream) return false;
    info.closeStream(retryMs);
    return true;
  }

  /** A notification about this request; once it runs as a task (2025-11-25), tagged with the task instead. */
  private notifyRelated(method: string, params: JsonObject): void {
    const run = this.running;
    if (!run) {
      this.peer.notify(method, params, this.inbound.id);
      return;
    }
    run.notify(method, { ...params, _meta: relatedTaskMeta(run.taskId) });
  }

  /**
   * Asks the client, through the server's middleware (direction "outbound"); `R` is the
   * result type the method's specification gives (see Connection.request).
   */
  private send<R extends object>(method: string, params: object, inputKey?: string): Promise<R> {
    const chain = this.server.middleware;
    const body = asJson(params);
    const asked =
      chain === undefined ? this.ask(method, body, inputKey) : this.askThroughChain(chain, method, body, inputKey);
    return answerAs<R>(asked).catch((error: unknown) => {
      // The client's error answer is a failure of this handler's work, not of the request
      // the handler is serving: a tool reports it as an isError result (server/tools §Error Handling).
      if (error instanceof McpError && !(error instanceof InputResponseError))
        throw new ClientRequestError(method, error);
      throw error;
    });
  }

  /** In a task, the request waits in it (input_required); otherwise it goes to the client now. */
  private ask(method: string, params: JsonObject, inputKey: string | undefined): Promise<JsonObject> {
    const run = this.running;
    if (run) return run.input(method, params, inputKey);
    return this.peer.ask(method, params, { signal: this.inbound.signal, relatedRequestId: this.inbound.id, inputKey });
  }

  /**
   * On 2026-07-28 a request the client has not answered yet ends the round: the chain's
   * `next()` then resolves with `{ resultType: "input_required" }` (the request went out
   * in the InputRequiredResult), and the handler, whose round is over, waits for good.
   */
  private async askThroughChain(
    chain: readonly ServerMiddleware[],
    method: string,
    params: JsonObject,
    inputKey: string | undefined,
  ): Promise<JsonObject> {
    const ended = this.running ? undefined : this.peer.roundEnded;
    let over = false;
    const result = await runChain(chain, this.outboundMessage(method, params), (c) => {
      const answer = this.ask(method, c.params ?? {}, inputKey);
      if (!ended) return answer;
      return Promise.race([
        answer,
        ended.then((): JsonObject => {
          over = true;
          return { resultType: "input_required" };
        }),
      ]);
    });
    return over ? new Promise<never>(() => {}) : result;
  }

  private outboundMessage(method: string, params: JsonObject) {
    const peer = this.peer;
    const origin = {
      era: peer.rules.modern ? "modern" : "legacy",
      revision: peer.rules.revision,
      sessionId: peer.sessionId,
      session: peer.session,
      client: peer.clientInfo,
      server: this.server.info,
      transport: undefined,
    } as const;
    return outboundRequest(origin, method, params, {
      info: this.inbound.info,
      signal: () => this.signal,
      inbound: this.inbound,
    });
  }
}
