import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, LogLevel } from "mcpkit";

/**
 * What the backend records and the page shows, one entry at a time: the messages, the
 * HTTP exchanges, the server's logs, and the questions the server asks the person. Types
 * only: the page and the backend both import them, and neither imports the other.
 */

/** One JSON-RPC message as the protocol view shows it. */
export interface ProtocolEntry {
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** "out": from the inspector to the server; "in": from the server. */
  dir: "out" | "in";
  kind: "request" | "response" | "error" | "notification" | "invalid";
  method?: string;
  id?: string | number;
  /**
   * The exchange it belongs to: a request, its answer, its progress, and what the server
   * asked on the way (a legacy server's elicitation/create, or a 2026-07-28 input_required
   * result and the retried request that answers it).
   */
  group?: number;
  /** Which attempt of its group's request this is (2026-07-28 multi round-trip requests). */
  round?: number;
  /** For an answer: milliseconds since its request. */
  latencyMs?: number;
  bytes: number;
  /** The message, or for one too large to keep, its first characters. */
  message: unknown;
  truncated?: boolean;
}

/** One HTTP exchange with the server (or its authorization server), as the network view shows it. */
export interface NetworkEntry {
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  method: string;
  url: string;
  /** The JSON-RPC methods a POST carried. */
  rpc?: string[];
  requestHeaders: Record<string, string>;
  status?: number;
  responseHeaders?: Record<string, string>;
  /** Milliseconds until the response headers came. */
  durationMs?: number;
  /** An SSE response: the stream stays open after the headers. */
  stream?: boolean;
  /** Bytes of the response body read so far, and whether it has ended. */
  bytes?: number;
  ended?: boolean;
  /** The client stopped reading before the end (a cancelled request, a closed subscription). */
  cancelled?: boolean;
  error?: string;
}

/** A server log message (notifications/message), or a line a stdio server wrote to stderr. */
export interface LogEntry {
  at: number;
  level: LogLevel | "stderr";
  logger?: string;
  data: unknown;
}

/** A request of the server that the person in the page answers: elicitation or sampling. */
export type Ask = {
  id: number;
  /** "request": a legacy server's JSON-RPC request; "input": an input request of a 2026-07-28 round (its key). */
  via: { kind: "request" | "input"; key: string };
} & (
  | { method: "elicitation/create"; params: ElicitParams }
  | { method: "sampling/createMessage"; params: CreateMessageParams }
);

/** The page's answer: a result to send, or a refusal (sent as a JSON-RPC error). */
export type Reply = { result: ElicitResult | CreateMessageResult } | { refuse: string };

/** What a step of a sign-in is (basic/authorization), in the order a first sign-in takes them. */
export type AuthStepKind =
  | "challenge"
  | "resource-metadata"
  | "server-metadata"
  | "registration"
  | "client-metadata"
  | "authorize"
  | "callback"
  | "token"
  | "refresh";

/**
 * One step of a sign-in, as the authorization view shows it: the request and the answer.
 * Secrets (codes, verifiers, tokens, client secrets) are never in it: each is replaced by
 * what it is and its length.
 */
export interface AuthStep {
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  kind: AuthStepKind;
  request: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    /** A form's fields, a JSON body, or the authorization request's query. */
    body?: unknown;
  };
  response?: {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
  };
  /** The request got no answer. */
  error?: string;
}
