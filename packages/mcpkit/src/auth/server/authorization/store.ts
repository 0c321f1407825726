/**
 * Where an authorization server keeps its state, so that every node of a deployment sees
 * the same: short-lived records (sign-ins under way, authorization codes, registered and
 * fetched clients), grants (a person's consent to one client, with its family of refresh
 * tokens) and signing keys. The server hands the store only hashes of the secrets it
 * issues and sealed (encrypted) text for everything else it must read back, so a store
 * never holds a usable token.
 */
export interface AuthorizationStore {
  /** Keeps `value` under `kind` and `key` for `ttlMs`, replacing what was there. */
  put(kind: RecordKind, key: string, value: string, ttlMs: number): Promise<void>;
  get(kind: RecordKind, key: string): Promise<string | undefined>;
  delete(kind: RecordKind, key: string): Promise<void>;
  /**
   * Uses a record once: the first call gets it with `first: true`, every later one (until
   * it expires) with `first: false`, so a replay is both refused and noticed. Atomic
   * across every handle of the store.
   */
  consume(kind: RecordKind, key: string): Promise<{ value: string; first: boolean } | undefined>;

  /** Saves a new grant whose first refresh token has the hash `refreshHash`; both expire at `grant.expiresAt`. */
  createGrant(grant: GrantRecord, refreshHash: string): Promise<void>;
  grant(id: string): Promise<GrantRecord | undefined>;
  /**
   * Refresh token rotation, atomically: when `presented` is the grant's current refresh
   * token, `next` replaces it ("rotated"); when it is an earlier one of the family, the
   * grant is deleted ("reused": someone replayed a spent token, so the whole family ends).
   */
  rotateRefresh(presented: string, next: string): Promise<Rotation>;
  /** The grant a refresh token (by hash) belongs to, current or spent. */
  grantOfRefresh(hash: string): Promise<string | undefined>;
  /** Replaces a live grant's sealed details (an upstream token refreshed); false when it is gone. */
  updateGrant(id: string, sealed: string): Promise<boolean>;
  /** Ends a grant and its refresh tokens; false when there was none. */
  revokeGrant(id: string): Promise<boolean>;

  /**
   * Counts `member` in every group of `counts` when each has room (fewer than its `max`
   * live members), all or none, atomically across every handle; the member leaves each
   * group `ttlMs` after. A member already in a group is counted once (its time renewed).
   * The server's limits are this one count: a rate per caller (a member per request,
   * staying the window) and a cap on live records (a member per record, staying as long).
   * Refused: the first full group, and in how long its oldest member leaves.
   */
  admit(member: string, counts: GroupLimit[]): Promise<Admission>;

  /**
   * Puts `member` of `owner` into a pool of what the server keeps for a while (unused
   * registrations, sign-ins under way, requests counted against a rate), atomically across
   * every handle; it leaves `ttlMs` after. A pool never refuses for want of room, so that
   * callers from many addresses cannot lock newcomers out. Records: when `owner` already
   * holds `maxPerOwner`, its own oldest gives way; when the pool holds `max`, the oldest of
   * the owner holding the most. A rate (`rate: true`): when `owner` already holds
   * `maxPerOwner`, the new member is refused (with when its oldest leaves); when the pool
   * holds `max`, its oldest member is forgotten. Oldest is first enlisted. The evicted are
   * returned, for the server to delete their records. A member already in the pool is
   * enlisted anew (as the newest, of `owner`).
   */
  enlist(member: string, owner: string, limit: PoolLimit): Promise<Enlistment>;
  /** Takes a member out of its pool (its record was used or ended): whether it was there, unexpired. */
  leave(pool: string, member: string): Promise<boolean>;

  /** Every signing key, oldest first. */
  signingKeys(): Promise<SigningKeyRecord[]>;
  addSigningKey(key: SigningKeyRecord): Promise<void>;
  removeSigningKey(kid: string): Promise<void>;
}

/** Short-lived records: clients (registered or fetched), sign-ins under way, authorization codes. */
export type RecordKind = "client" | "request" | "code";

/** A group `admit` counts in: at most `max` live members, each staying `ttlMs`. */
export interface GroupLimit {
  group: string;
  max: number;
  ttlMs: number;
}

/** A pool `enlist` keeps members in: at most `max` in all, and `maxPerOwner` of one owner (absent: no share of its own). */
export interface PoolLimit {
  /** The pool's name (`sign-ins`, `rate:register`…). */
  pool: string;
  /** The most members it holds. */
  max: number;
  /** The most members of one owner (absent: none of its own). */
  maxPerOwner?: number;
  /** How long the member stays. */
  ttlMs: number;
  /** Requests counted against a rate, not records kept: an owner over its share is refused, and at `max` the oldest is forgotten. */
  rate?: boolean;
}

/** A member enlisted, with those that gave way for it; or, in a rate, refused until the owner's oldest leaves. */
export type Enlistment = { admitted: true; evicted: string[] } | { admitted: false; retryAfterMs: number };

export type Admission = { admitted: true } | { admitted: false; group: string; retryAfterMs: number };

/** A person's consent to one client for one resource: what its refresh tokens renew. */
export interface GrantRecord {
  id: string;
  clientId: string;
  /** The person, as the tokens name them (`sub`). */
  subject: string;
  /** When the grant and every refresh token of it end, ms since the epoch. */
  expiresAt: number;
  /** Scope, resource, DPoP key and upstream tokens, sealed. */
  sealed: string;
}

export type Rotation =
  | { status: "rotated"; grant: GrantRecord }
  | { status: "reused"; grantId: string }
  | { status: "unknown" };

/** A signing key: its public JWK as published, its private JWK sealed. */
export interface SigningKeyRecord {
  kid: string;
  /** ms since the epoch. */
  createdAt: number;
  publicJwk: Record<string, unknown>;
  sealedPrivateJwk: string;
}
