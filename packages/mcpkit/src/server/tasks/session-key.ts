import { randomUUID } from "node:crypto";

/**
 * An opaque id per session object, made on first use: what an anonymous task records of
 * the session that created it (a transport's session id may be absent, as on stdio).
 */
const keys = new WeakMap<object, string>();

export function sessionKey(session: object | undefined): string | undefined {
  if (session === undefined) return undefined;
  let key = keys.get(session);
  if (key === undefined) {
    key = randomUUID();
    keys.set(session, key);
  }
  return key;
}
