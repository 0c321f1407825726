import type { RequestKey } from "../connection/request-values.js";
import type { RequestId } from "../jsonrpc/types.js";
import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel, Meta } from "../protocol/types/common.js";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitResult,
  Root,
} from "../protocol/types/features.js";
import type { StandardSchemaV1 } from "../schema/standard.js";
import type { ServerSession } from "./server-session.js";

/** A form elicitation: the schema is a Standard Schema or the spec's restricted JSON Schema. */
export interface ElicitFormRequest<S extends StandardSchemaV1 | ElicitFormParams["requestedSchema"]> {
  mode?: "form";
  message: string;
  schema: S;
  /** The input request's key in a 2026-07-28 multi round-trip request (default: elicit-1, elicit-2, …). */
  key?: string;
}

export interface ElicitUrlRequest {
  mode: "url";
  message: string;
  url: string;
  /** Generated when omitted; announce completion with ctx.elicitationComplete(id). */
  elicitationId?: string;
  key?: string;
}

/** Where a server-to-client request sits in a 2026-07-28 multi round-trip request. */
export interface InputOptions {
  /** Its key in inputRequests / inputResponses (default: sample-1, roots-1, …). */
  key?: string;
}

export type ElicitOutcome<S> = Omit<ElicitResult, "content"> & {
  content?: S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : ElicitResult["content"];
};

/**
 * What a tool, resource or prompt handler sees: one object in every protocol revision
 * (one definition, every revision).
 */
export interface Context {
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  readonly requestId: RequestId;
  readonly method: string;
  /** The negotiated protocol revision. */
  readonly revision: string;
  readonly sessionId: string | undefined;
  /**
   * The session this request arrived on (2024-11-05 … 2025-11-25): the same object for
   * every request of one client connection, to keep per-client state on. Undefined for
   * 2026-07-28 requests, which carry everything they need and have no session.
   */
  readonly session: ServerSession | undefined;
  readonly client: { readonly info: Implementation | undefined; readonly capabilities: ClientCapabilities };
  /** The request's `_meta`. */
  readonly meta: Meta | undefined;
  /** The authenticated principal, when the transport verified one. */
  readonly auth: unknown;
  /**
   * A value the server's middleware set for this request (`ctx.set(key, value)` there),
   * typed by its key (`requestKey<T>(name)`); undefined when none was set. See docs/middleware.md.
   */
  get<T>(key: RequestKey<T>): T | undefined;
  /** basic/utilities/progress: ignored without a progressToken or when not increasing. */
  progress(progress: number, total?: number, message?: string): void;
  /** server/utilities/logging: sent when at or above the client's level. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** client/elicitation: asks the user, through the client. */
  elicit<S extends StandardSchemaV1 | ElicitFormParams["requestedSchema"]>(
    request: ElicitFormRequest<S>,
  ): Promise<ElicitOutcome<S>>;
  elicit(request: ElicitUrlRequest): Promise<ElicitResult & { elicitationId: string }>;
  /** Tells the client a URL-mode elicitation finished (notifications/elicitation/complete). */
  elicitationComplete(elicitationId: string): void;
  /** client/sampling: asks the client's model. */
  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** client/roots */
  listRoots(options?: InputOptions): Promise<Root[]>;
  /** OpenTelemetry trace context from the request's `_meta` (traceparent, tracestate, baggage). */
  readonly trace: { traceparent?: string; tracestate?: string; baggage?: string };
  /**
   * Ends the HTTP connection carrying this request's answer while the request goes on; the
   * client reconnects after `retryMs` and resumes the stream (Streamable HTTP §SSE polling).
   * False where the transport cannot (stdio, or HTTP without an event store).
   */
  closeStream(retryMs?: number): boolean;
  /**
   * The task this call runs as (tasks, docs/tasks.md), once it is one. While it is, the
   * handler's requests to the client wait in the task (input_required) for the client to
   * answer, even after it disconnected, and `signal` is aborted when the task is cancelled.
   */
  readonly task: { readonly id: string } | undefined;
  /**
   * For tools declared with `task: { startsAt: "handler" }`: turns the call into a task
   * now (the client gets the task and polls it) and resolves once it is stored. Input
   * gathered before this used the request itself. Does nothing when the call cannot
   * run as a task (the client does not support tasks) or already is one.
   */
  startTask(): Promise<void>;
  /** The task's status message (what the client shows while it waits); nothing outside a task. */
  status(message: string): void;
}
