import { ErrorCode, McpError } from "mcpkit";

/**
 * Whether an HTTP server is still there. Over stdio the child's exit says so; over HTTP
 * nothing does until a request fails, so the inspector pings (basic/utilities/ping §Implementation
 * Considerations: periodically, at a configurable frequency) while a page is open, and
 * pings at once when something suggests the server went away (a stream of it ended).
 */

/** The timers it runs on: the real ones, or a fake clock in tests. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface LivenessOptions {
  /** From one answer to the next ping, ms. */
  intervalMs: number;
  /** Sends one ping (with its own timeout); settles when the server answered or could not. */
  ping: () => Promise<void>;
  /** The server answered a ping (an error answer is an answer: it is there). */
  onAnswer: () => void;
  /** A ping got no answer: `error` says why. Pinging goes on unless stop() is called. */
  onLost: (error: unknown) => void;
  clock?: Clock;
}

export interface Liveness {
  /** Pings only while on (a page is open and the connection is up). */
  watch(on: boolean): void;
  /** Something suggests the server went away: ping now, if watched and no ping is out. */
  check(): void;
  /** No more pings; a ping still out is ignored when it settles. */
  stop(): void;
}

/**
 * One ping out at a time, the next `intervalMs` after the last answer: a page opened long
 * after that answer gets a ping at once, one opened just after it waits the rest.
 */
export function watchLiveness(options: LivenessOptions): Liveness {
  const clock = options.clock ?? systemClock;
  let on = false;
  let stopped = false;
  let out = false;
  let timer: unknown;
  // The connection was just made: that counts as an answer.
  let heard = clock.now();

  const cancel = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  const schedule = () => {
    cancel();
    if (!on || stopped || out) return;
    timer = clock.setTimeout(ping, Math.max(0, heard + options.intervalMs - clock.now()));
  };
  function ping(): void {
    timer = undefined;
    if (!on || stopped || out) return;
    out = true;
    options.ping().then(
      () => settle(undefined),
      (error: unknown) => settle(serverAnswered(error) ? undefined : { error }),
    );
  }
  function settle(lost: { error: unknown } | undefined): void {
    out = false;
    if (stopped) return;
    if (lost) options.onLost(lost.error);
    else {
      heard = clock.now();
      options.onAnswer();
    }
    schedule();
  }

  return {
    watch(next) {
      on = next;
      if (on) schedule();
      else cancel();
    },
    check() {
      if (!on || stopped || out) return;
      cancel();
      ping();
    },
    stop() {
      stopped = true;
      cancel();
    },
  };
}

/**
 * The failures an HTTP client transport makes up for a request the server never answered
 * (transports/http/client/http-errors.ts): no connection, an HTTP error without a JSON-RPC
 * body (a proxy whose server is gone), a broken stream. A session the server forgot is
 * not one: the server answered, and the Client starts a new session by itself.
 */
const UNANSWERED = new Set(["network-error", "http-error", "transport-error", "stream-lost"]);

/**
 * Whether a failed ping was still answered by the server: a JSON-RPC error it sent (a
 * server that refuses ping, or a 2026-07-28 server/discover) shows it is there. A timeout,
 * or a failure the transport made up because no answer came, does not.
 */
export function serverAnswered(error: unknown): boolean {
  if (!(error instanceof McpError)) return false;
  if (error.code === ErrorCode.RequestTimeout && isObject(error.data) && "timeout" in error.data) return false;
  const reason = isObject(error.data) ? error.data.reason : undefined;
  return !(error.code === ErrorCode.ConnectionClosed && typeof reason === "string" && UNANSWERED.has(reason));
}

/** What the network said, in words (the codes Node's fetch gives as its failure's cause). */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_SOCKET: "connection closed",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
};

/** Why the page says the server is gone, in one line: "The server stopped answering (connection refused)". */
export function lostReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && isObject(error.data)) {
    const ms = Number(error.data.timeout);
    if (Number.isFinite(ms)) return `The server stopped answering (no answer to a ping in ${formatMs(ms)})`;
  }
  const code = /\(([A-Z][A-Z0-9_]+)\)$/.exec(message)?.[1];
  const said = code ? NETWORK_CODES[code] : undefined;
  return `The server stopped answering (${said ?? message})`;
}

const formatMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
