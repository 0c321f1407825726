import { durationMs, positive } from "@mcpkit/servers/options";
import { UsageError } from "../usage-error.js";

/** Limits of the HTTP endpoint (--port only). */
export interface HttpLimits {
  maxSessions?: number;
  idleTimeoutMs?: number;
  /** The server's own say on a new session (a proxy with every upstream busy). */
  admitSession?: () => { message: string; retryAfterSeconds: number } | undefined;
}

/** --max-sessions and --idle-timeout, checked before anything starts. */
export function httpLimits(options: { port?: string; maxSessions?: string; idleTimeout?: string }): HttpLimits {
  const given =
    options.maxSessions !== undefined
      ? "--max-sessions"
      : options.idleTimeout !== undefined
        ? "--idle-timeout"
        : undefined;
  if (given && options.port === undefined) throw new UsageError(`${given} applies to Streamable HTTP only: add --port`);
  return {
    ...(options.maxSessions !== undefined && { maxSessions: positive(options.maxSessions, "--max-sessions") }),
    ...(options.idleTimeout !== undefined && { idleTimeoutMs: durationMs(options.idleTimeout, "--idle-timeout") }),
  };
}

export function portNumber(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n <= 65535))
    throw new UsageError(`--port takes a port number from 0 to 65535 (0: any free port), not "${value}"`);
  return n;
}
