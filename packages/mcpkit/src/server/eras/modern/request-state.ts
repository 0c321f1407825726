import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The `requestState` of a multi round-trip request (basic/patterns/mrtr §Security): the
 * answers gathered in earlier rounds, bound to the request they belong to and to a short
 * expiry, signed with HMAC-SHA256 so a client cannot alter them.
 */
export interface RequestStatePayload {
  /** The method and a digest of the parameters that identify the original request. */
  request: string;
  /** Answers to input requests of earlier rounds, by key. */
  answers: Record<string, unknown>;
  /** Expiry, ms since the epoch. */
  expires: number;
  /** The authenticated principal, when there is one. */
  principal?: string;
}

export class RequestStateError extends Error {}

export function makeKey(key: Uint8Array | string | undefined): Buffer {
  if (key === undefined) return randomBytes(32);
  const bytes = typeof key === "string" ? Buffer.from(key, "utf8") : Buffer.from(key);
  if (bytes.length < 32) throw new RangeError("requestStateKey must be at least 32 bytes");
  return bytes;
}

const sign = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url");

export function sealRequestState(payload: RequestStatePayload, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${sign(key, body)}`;
}

/** Checks the signature, the expiry and the binding; throws RequestStateError when any fails. */
export function openRequestState(
  token: string,
  key: Buffer,
  expect: { request: string; principal?: string; now?: number },
): RequestStatePayload {
  const dot = token.lastIndexOf(".");
  const body = dot > 0 ? token.slice(0, dot) : "";
  const given = Buffer.from(dot > 0 ? token.slice(dot + 1) : "", "base64url");
  const wanted = Buffer.from(sign(key, body), "base64url");
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new RequestStateError("requestState failed its integrity check: pass it back exactly as received");
  }
  let payload: RequestStatePayload;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw new RequestStateError("requestState is not readable");
  }
  if (payload.expires < (expect.now ?? Date.now())) {
    throw new RequestStateError("requestState has expired: send the request again without it");
  }
  if (payload.request !== expect.request) {
    throw new RequestStateError("requestState belongs to a different request");
  }
  if (payload.principal !== expect.principal) {
    throw new RequestStateError("requestState belongs to a different caller");
  }
  return payload;
}
