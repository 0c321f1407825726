import type { Connection } from "../../connection/connection.js";
import type { SentRequest } from "../../connection/connection-options.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { answerAs, asJson } from "../../jsonrpc/message.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { META } from "../../protocol/meta.js";
import { TASKS_EXTENSION } from "../../protocol/tasks.js";
import type { Implementation } from "../../protocol/types/common.js";
import type { InputRequest } from "../../protocol/types/modern.js";
import { isModernRevision, type ModernRevision, type Revision } from "../../protocol/versions.js";
import type { ClientRequestContext } from "../answer.js";
import type { CallOptions } from "./client-era.js";
import { chooseVersion, supportedFrom } from "./detect.js";
import { type Envelope, withEnvelope } from "./envelope.js";
import { untilComplete } from "./mrtr.js";

/** What the modern request path needs from its era. */
export interface ModernHost {
  readonly connection: Connection;
  /** The per-request protocol fields for `version`. */
  envelope(version: string): Envelope;
  /** Answers one input request (the client's handlers, through its middleware). */
  answer(method: string, params: JsonObject, ctx: ClientRequestContext): Promise<JsonObject>;
  maxRounds: number;
  /** The revision the user insists on, if any: a retry never picks another. */
  forced: Revision | undefined;
}

const reasonOf = (error: unknown) => (error as { data?: { reason?: unknown } } | undefined)?.data?.reason;
const NEVER = new AbortController().signal;

/**
 * How a Client talks to a 2026-07-28 server: every request with the `_meta` envelope
 * (basic/index §_meta), input-required results answered and retried until complete
 * (basic/patterns/mrtr), a version the server stopped taking swapped for one it lists
 * (-32022), and a request whose HTTP stream was lost sent again with a new id.
 */
export class ModernRequests {
  version: ModernRevision;
  /** basic/index §_meta: the server's latest `serverInfo` from a result. */
  serverInfo: Implementation | undefined;
  private readonly host: ModernHost;

  constructor(host: ModernHost, version: ModernRevision) {
    this.host = host;
    this.version = version;
  }

  /** The call as the user sees it, whatever rounds it takes. */
  request<R extends object = JsonObject>(
    method: string,
    params: object | undefined,
    options?: CallOptions,
  ): Promise<R> {
    const signal = options?.signal;
    const acceptsTask =
      method === "tools/call" &&
      (options?.asTask !== undefined ||
        this.host.envelope(this.version).capabilities.extensions?.[TASKS_EXTENSION] !== undefined);
    // The result of the last round is the method's result: typed as the caller names it (see Connection.request).
    return answerAs<R>(
      untilComplete(
        method,
        params === undefined ? {} : asJson(params),
        (attempt) => this.attempt(method, attempt, options),
        (key, request) => this.answerInput(key, request, signal),
        this.host.maxRounds,
        acceptsTask,
      ),
    );
  }

  /** Sends one request as it is (no retries) and tells its JSON-RPC id. */
  sendOnce(method: string, params: JsonObject, options?: CallOptions): SentRequest {
    let envelope = this.host.envelope(this.version);
    if (options?.capabilities) envelope = { ...envelope, capabilities: options.capabilities };
    if (options?.asTask) {
      // The Tasks extension: declared on this request, the server may answer with a task.
      const caps = envelope.capabilities;
      envelope = { ...envelope, capabilities: { ...caps, extensions: { ...caps.extensions, [TASKS_EXTENSION]: {} } } };
    }
    const sent = withEnvelope(params, envelope, options?.meta);
    return this.host.connection.sendRequest(method, sent, options);
  }

  /** basic/index §_meta: servers SHOULD name themselves in every result. */
  noteServerInfo(result: { _meta?: unknown; serverInfo?: unknown }): void {
    const meta = result._meta as Record<string, unknown> | undefined;
    const info = (meta?.[META.serverInfo] ?? result.serverInfo) as Implementation | undefined;
    if (info && typeof info.name === "string") this.serverInfo = info;
  }

  /** One attempt, retried once for a version change (-32022) and once for a lost stream. */
  private async attempt(method: string, params: JsonObject, options?: CallOptions): Promise<JsonObject> {
    let versionRetried = false;
    let streamRetried = false;
    for (;;) {
      try {
        const result = await this.sendOnce(method, params, options).response;
        this.noteServerInfo(result);
        return result;
      } catch (error) {
        if (this.host.connection.isClosed) throw error;
        const supported = supportedFrom(error);
        if (supported && !versionRetried) {
          // basic/versioning §Protocol Version Negotiation: retry with a shared version.
          const forced = this.host.forced;
          const chosen = chooseVersion(supported, isModernRevision(forced) ? forced : undefined);
          if (isModernRevision(chosen)) {
            versionRetried = true;
            this.version = chosen;
            this.host.connection.transport.setProtocolVersion?.(chosen);
            continue;
          }
        }
        // changelog item 9: a lost response stream loses the request; send it again, new id.
        if (reasonOf(error) === "stream-lost" && !streamRetried) {
          streamRetried = true;
          continue;
        }
        throw error;
      }
    }
  }

  /** Answers one input request with the same handlers as the stateful era. */
  private async answerInput(key: string, request: InputRequest, signal: AbortSignal | undefined): Promise<JsonObject> {
    const ctx: ClientRequestContext = { signal: signal ?? NEVER, requestId: key, inputKey: key };
    try {
      return await this.host.answer(request.method, request.params ?? {}, ctx);
    } catch (error) {
      if (!(error instanceof McpError) || error.code !== ErrorCode.MethodNotFound) throw error;
      // basic/patterns/mrtr §Server Requirements: servers MUST NOT ask for what the client
      // did not declare. There is no way to answer "no" in inputResponses: fail the call.
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The server asked for ${request.method} (input "${key}"), which this client did not declare`,
        { reason: "undeclared-input-request", method: request.method, inputKey: key },
      );
    }
  }
}
