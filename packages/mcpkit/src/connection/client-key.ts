import { createHash } from "node:crypto";
import { addressKey } from "../transports/http/client-address.js";

/**
 * Who is calling, as one string: the issuer of the verified token and its subject. A token
 * without `sub` speaks for its client (issuer + client id), one with neither for itself
 * alone (its hash); each kind is labelled, so no client id, however chosen, can name a
 * user's principal. Sessions, tasks, multi round-trip request state and rate limits are
 * all bound to it, so all read it the same way: this is that one rule. Undefined without a
 * verified token (or an auth object naming none of these).
 */
export function principalOf(auth: unknown): string | undefined {
  if (typeof auth !== "object" || auth === null) return undefined;
  const a = auth as { issuer?: unknown; subject?: unknown; sub?: unknown; clientId?: unknown; token?: unknown };
  const issuer = encodeURIComponent(typeof a.issuer === "string" ? a.issuer : "");
  const subject = a.subject ?? a.sub;
  if (subject !== undefined) return `user:${issuer}:${encodeURIComponent(String(subject))}`;
  if (a.clientId !== undefined) return `client:${issuer}:${encodeURIComponent(String(a.clientId))}`;
  if (typeof a.token === "string") return `token:${issuer}:${createHash("sha256").update(a.token).digest("base64url")}`;
  return undefined;
}

/**
 * Who a caller is, for limits that must not be reset by opening another session: the
 * principal when there is one, else the network address (an IPv6 address by its /64:
 * client-address.ts). Session caps, rate limits and task bounds all count under this key.
 */
export function clientKey(principal: string | undefined, address: string | undefined): string | undefined {
  if (principal !== undefined) return `principal:${principal}`;
  return address === undefined ? undefined : `address:${addressKey(address)}`;
}
