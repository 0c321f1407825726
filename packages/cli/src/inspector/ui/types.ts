/** The shapes the backend sends (see ../session.ts, ../protocol-log.ts, ../network-log.ts). */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/**
 * A JSON object from the server: shaped by the specification, read field by field by the
 * views, which check what they rely on.
 */
// biome-ignore lint/suspicious/noExplicitAny: server data, whatever the spec lets it carry
export type JsonObject = Record<string, any>;

export interface ProtocolEntry {
  seq: number;
  at: number;
  dir: "out" | "in";
  kind: "request" | "response" | "error" | "notification" | "invalid";
  method?: string;
  id?: string | number;
  group?: number;
  round?: number;
  latencyMs?: number;
  bytes: number;
  message: unknown;
  truncated?: boolean;
}

export interface NetworkEntry {
  seq: number;
  at: number;
  method: string;
  url: string;
  rpc?: string[];
  requestHeaders: Record<string, string>;
  status?: number;
  responseHeaders?: Record<string, string>;
  durationMs?: number;
  stream?: boolean;
  bytes?: number;
  ended?: boolean;
  cancelled?: boolean;
  error?: string;
}

export interface LogEntry {
  at: number;
  level: string;
  logger?: string;
  data: unknown;
}

export interface Ask {
  id: number;
  method: "elicitation/create" | "sampling/createMessage";
  params: JsonObject;
  via: { kind: "request" | "input"; key: string };
}

export interface Task {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttl?: number | null;
  ttlMs?: number | null;
  pollInterval?: number;
  pollIntervalMs?: number;
  [key: string]: unknown;
}

/** The target as the page is told of it: header names only, no environment (../target.ts PageTarget). */
export type Target =
  | { kind: "http"; url: string; headers: string[] }
  | { kind: "stdio"; command: string; args: string[]; cwd?: string };

export interface ConnectionState {
  status: "connecting" | "signing-in" | "connected" | "disconnected" | "failed";
  error?: string;
  target?: Target;
  targetLabel?: string;
  /** --allow-spawn: the programs the page may start. */
  allowSpawn?: string[];
  protocolChoice?: string;
  description?: JsonObject;
  era?: "legacy" | "modern";
  revision?: string;
  transport?: string;
  sessionId?: string;
  /** A stdio server's process id. */
  pid?: number;
  clientCapabilities?: JsonObject;
  signInUrl?: string;
  roots?: { uri: string; name?: string }[];
  /** An HTTP server's liveness pings on this connection (see ../liveness.ts). */
  pings?: { intervalMs: number; answered: number; at?: number };
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
  execution?: { taskSupport?: string };
  icons?: JsonObject[];
  _meta?: JsonObject;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: JsonObject;
  _meta?: JsonObject;
}

export interface Template {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; title?: string; description?: string; required?: boolean }[];
}
