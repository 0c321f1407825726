import { basename, dirname, extname, join } from "node:path";
import { META } from "../../protocol/meta.js";
import { isObject } from "../json/sorted.js";

/**
 * Which recording a message of the HTTP relay goes to (docs/testing.md, "Sessions over
 * HTTP"). A session is:
 *
 * - with a session id (the server gave `Mcp-Session-Id` in its initialize answer, up to
 *   2025-11-25): everything carrying that id, from the initialize to the DELETE;
 * - without one (2026-07-28, or a legacy server that keeps no sessions): the requests of
 *   one client, known by the `clientInfo` in their `_meta` (a legacy request carries none:
 *   those are one client), from a successful `server/discover` (or an `initialize`
 *   answered without an id) to the next one, which starts the next session. A
 *   `server/discover` that fails is a legacy client's probe: no session's, not recorded.
 */
export type SessionKey = string;

/** The key of a request that carries a session id. */
export const sessionKey = (sessionId: string): SessionKey => `session:${sessionId}`;

/** The key of a request without a session id: its client, as its `_meta` names it. */
export function clientKey(messages: readonly unknown[]): SessionKey {
  for (const message of messages) {
    const meta = isObject(message) && isObject(message.params) ? message.params._meta : undefined;
    const info = isObject(meta) ? meta[META.clientInfo] : undefined;
    if (isObject(info)) return `client:${String(info.name)}@${String(info.version)}`;
  }
  return "client:legacy";
}

/** What starts a new session without an id: a handshake or a discovery. */
export const startsSession = (messages: readonly unknown[]) =>
  messages.some((m) => isObject(m) && (m.method === "initialize" || m.method === "server/discover"));

/** Whether an answer is a success (a result, not an error), for the discovery that starts a session. */
export const answered = (messages: readonly unknown[]) => messages.some((m) => isObject(m) && "result" in m);

/** The n-th session's file: `rec.jsonl`, then `rec-2.jsonl`, `rec-3.jsonl`… */
export function sessionPath(out: string, n: number): string {
  if (n <= 1) return out;
  const ext = extname(out);
  return join(dirname(out), `${basename(out, ext)}-${n}${ext}`);
}
