import type { ClientCapabilities, Revision, Root } from "mcpkit";
import type { Progress, ServerDescription, WireTask } from "mcpkit/client";
import type { CheckResult } from "../../doctor/check.js";
import type { Ask, AuthStep, LogEntry, NetworkEntry, ProtocolEntry } from "./entries.js";

/**
 * What the backend tells the page, one server-sent event at a time (GET /api/events): the
 * connection's state, and everything recorded as it happens. The backend's emit and the
 * page's store both take this union, so an event one side sends is one the other reads.
 */

export type Status = "connecting" | "signing-in" | "connected" | "disconnected" | "failed";

/** `--protocol`: let the client find the newest era the server speaks, force one, or name a revision. */
export type ProtocolChoice = "auto" | "legacy" | "modern" | Revision;

/**
 * A target as the page is told of it: an HTTP server's URL and the names of the headers
 * held for its origin, never their values; a command and its arguments, never its variables.
 */
export type PageTarget =
  | { kind: "http"; url: string; headers: string[] }
  | { kind: "stdio"; command: string; args: string[]; cwd?: string };

/** How the inspector reaches the server: over HTTP, the transport the client settled on. */
export type TransportKind = "streamable-http" | "http+sse" | "stdio";

/** The pings of the current connection, as the page shows them. */
export interface Pings {
  intervalMs: number;
  answered: number;
  /** When the last answer came, ms since the epoch. */
  at?: number;
}

/**
 * A task as the page keeps it: 2026-07-28's shape, with 2025-11-25's `ttl` and
 * `pollInterval` when a legacy server sent those instead.
 */
export type PageTask = Partial<WireTask> &
  Pick<WireTask, "taskId" | "status"> & { ttl?: number | null; pollInterval?: number };

/** The connection as the page shows it. */
export interface ConnectionState {
  status: Status;
  /** Why the connection is down (or failed), once it is. */
  error?: string;
  target: PageTarget;
  targetLabel: string;
  /** --allow-spawn: the programs the page may start. */
  allowSpawn: readonly string[];
  protocolChoice: ProtocolChoice;
  description?: ServerDescription;
  era?: "legacy" | "modern";
  revision?: string;
  transport?: TransportKind;
  sessionId?: string;
  /** A stdio server's process id. */
  pid?: number;
  /**
   * Once a stdio server's connection failed or was lost: the last lines it wrote to stderr
   * (why it crashed, most often), shown with the failure.
   */
  stderr?: string[];
  clientCapabilities?: ClientCapabilities;
  signInUrl?: string;
  roots: Root[];
  /** Give up on a request after this long, ms (0: never). */
  timeoutMs: number;
  /** How often an HTTP server is pinged while a page is open, ms (0: never). */
  pingIntervalMs: number;
  /** An HTTP server's liveness pings on this connection (see ../liveness.ts). */
  pings?: Pings;
  /** Once the connection failed (or on request): the doctor's steps, as they come. */
  diagnosis?: Diagnosis;
}

/** One step of the doctor (../../doctor/check.ts): what it found, and for a failure the fix. */
export type DoctorCheck = CheckResult;

/** The doctor's diagnosis of the server the connection failed to reach (../diagnosis.ts). */
export interface Diagnosis {
  /** The doctor is still at it: more steps to come. */
  running: boolean;
  /** Once done: whether a client can use the server (no step of severity error failed). */
  ok?: boolean;
  checks: DoctorCheck[];
  /** The doctor itself could not finish (never what the server did: that is a step). */
  error?: string;
}

/** The notifications the page reacts to (lists to read again, a resource to read again, an elicitation done). */
export type PageNotification =
  | "notifications/resources/updated"
  | "notifications/tools/list_changed"
  | "notifications/resources/list_changed"
  | "notifications/prompts/list_changed"
  | "notifications/elicitation/complete";

export type PageEvent =
  | ({ type: "state" } & ConnectionState)
  | ({ type: "snapshot" } & ConnectionState & Recorded)
  | { type: "pings"; pings: Pings }
  | { type: "message"; entry: ProtocolEntry }
  | { type: "http"; entry: NetworkEntry }
  | { type: "log"; entry: LogEntry }
  /** A step of a sign-in began, or its answer came (the same seq again). */
  | { type: "auth"; step: AuthStep }
  | { type: "asks"; asks: Ask[] }
  | { type: "task"; task: PageTask }
  | { type: "progress"; callId: string; progress: Progress }
  /** The lists may have changed unseen (a listen stream opened anew, a new session): read them again. */
  | { type: "lists-stale" }
  | { type: "notification"; method: PageNotification; params: Record<string, unknown> };

/** What was recorded before a page opened, in its first event. */
export interface Recorded {
  protocol: ProtocolEntry[];
  network: NetworkEntry[];
  logs: LogEntry[];
  asks: Ask[];
  tasks: PageTask[];
  auth: AuthStep[];
}
