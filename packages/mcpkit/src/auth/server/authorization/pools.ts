import type { ClientRecord } from "./clients.js";
import type { Core } from "./core.js";
import type { Enlistment } from "./store.js";

/**
 * What the server keeps for a while on anyone's say-so, each in a pool of the store
 * (store.enlist) that never refuses for want of room: at a cap, the oldest of whoever holds
 * the most gives way, and its records are deleted with it. So a crowd of addresses can fill
 * none of them against a newcomer, and the memory they take is bounded by the caps.
 */
export const POOL = {
  /** Registrations no token was issued to yet, owned by the address that registered them. */
  unusedClients: "unused-clients",
  /** Registered clients someone signed in with, owned by that person (the token's subject). */
  clients: "clients",
  /** Sign-ins under way, owned by the address that started them. */
  signIns: "sign-ins",
} as const;

/** A cap turned off (`false`): no number of members reaches it. */
const NO_CAP = Number.MAX_SAFE_INTEGER;

/** Callers whose address is not known count as one owner (their share is not capped). */
const ownerOf = (caller: string | undefined) => caller ?? "unknown";

const evictedOf = (enlisted: Enlistment) => (enlisted.admitted ? enlisted.evicted : []);

/** The records of a sign-in under way: before the upstream sign-in, and the consent decision after it. */
export const consentKey = (id: string) => `${id}/consent`;

/** Keeps a new registration until it is used or `unusedClientTtlSec` passes. */
export async function keepUnusedClient(core: Core, client: ClientRecord, caller: string | undefined): Promise<void> {
  const enlisted = await core.store.enlist(client.client_id, ownerOf(caller), {
    pool: POOL.unusedClients,
    max: core.limits.maxUnusedClients ?? NO_CAP,
    ...(caller !== undefined && core.limits.maxClientsPerCaller && { maxPerOwner: core.limits.maxClientsPerCaller }),
    ttlMs: core.ttl.unusedClientMs,
  });
  await Promise.all(evictedOf(enlisted).map((id) => core.store.delete("client", id)));
  await core.store.put("client", client.client_id, JSON.stringify(client), core.ttl.unusedClientMs);
}

/**
 * A token was issued to `client` for `subject`: a registration used for the first time is
 * kept from now on for the clients' lifetime, among the used ones, as that person's.
 */
export async function clientUsed(core: Core, client: ClientRecord, subject: string): Promise<void> {
  if (client.source !== "registration" || !(await core.store.leave(POOL.unusedClients, client.client_id))) return;
  const enlisted = await core.store.enlist(client.client_id, subject, {
    pool: POOL.clients,
    max: core.limits.maxClients ?? NO_CAP,
    ttlMs: core.ttl.clientMs,
  });
  await Promise.all(evictedOf(enlisted).map((id) => core.store.delete("client", id)));
  await core.store.put("client", client.client_id, JSON.stringify(client), core.ttl.clientMs);
}

/** Counts a sign-in under way (by its id) until it ends or `signInTtlSec` passes; those it displaces end. */
export async function startSignIn(core: Core, id: string, caller: string | undefined): Promise<void> {
  const enlisted = await core.store.enlist(id, ownerOf(caller), {
    pool: POOL.signIns,
    max: core.limits.maxSignIns ?? NO_CAP,
    ...(caller !== undefined && core.limits.maxSignInsPerCaller && { maxPerOwner: core.limits.maxSignInsPerCaller }),
    ttlMs: core.ttl.signInMs,
  });
  await Promise.all(evictedOf(enlisted).map((gone) => deleteSignIn(core, gone)));
}

/** A sign-in ended (decided, failed upstream): it leaves the pool, its records go. */
export async function endSignIn(core: Core, id: string): Promise<void> {
  await core.store.leave(POOL.signIns, id);
  await deleteSignIn(core, id);
}

const deleteSignIn = (core: Core, id: string) =>
  Promise.all([core.store.delete("request", id), core.store.delete("request", consentKey(id))]);
