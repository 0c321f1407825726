import { createHash, randomUUID } from "node:crypto";
import { clientKey } from "../../connection/client-key.js";
import type { Call } from "../dispatch/method.js";
import { principalOf } from "../principal.js";
import type { ServerSession } from "../server-session.js";

/**
 * Whose a task is (basic/utilities/tasks §Task Isolation and Access Control): the
 * principal, when the request carries a verified token; else the legacy session that
 * made it, by an identity every node agrees on. A 2026-07-28 request without a token has
 * neither: the task id is then its only key (the Tasks extension §Security Considerations
 * lets a server use unguessable task ids as bearer tokens).
 */
export function taskOwner(call: Call): string | undefined {
  const principal = principalOf(call.inbound.info?.auth);
  if (principal !== undefined) return `principal:${principal}`;
  const session = call.peer.session;
  return session === undefined ? undefined : `session:${sessionIdentity(session)}`;
}

/**
 * Whom a task counts against (tasks.maxTasksPerClient): the principal, else the client's
 * address, so that opening sessions does not buy more; else its owner (a stdio or
 * in-memory connection is one client).
 */
export function taskClient(call: Call, owner: string | undefined): string {
  const info = call.inbound.info;
  return clientKey(principalOf(info?.auth), info?.remoteAddress) ?? owner ?? "anonymous";
}

const identities = new WeakMap<ServerSession, string>();

/**
 * The Mcp-Session-Id, hashed (the same on every node of a cluster, and a stored task
 * reveals no live session id); a connection without one (stdio, in memory) lives on one
 * node only, so a random id per session object does.
 */
function sessionIdentity(session: ServerSession): string {
  let identity = identities.get(session);
  if (identity === undefined) {
    identity =
      session.sessionId === undefined
        ? randomUUID()
        : createHash("sha256").update(session.sessionId).digest("base64url");
    identities.set(session, identity);
  }
  return identity;
}
