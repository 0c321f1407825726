import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { AuthorizationStore, GrantRecord, SigningKeyRecord } from "../../auth/server/authorization/store.js";
import { poolContract } from "./authorization-store-pools.js";
import type { ContractCase } from "./case.js";

/**
 * Two handles on the same authorization state: the same store twice in memory, two
 * connections (two nodes) for a shared one such as Redis. `close` releases them.
 */
export interface AuthorizationStorePair {
  a: AuthorizationStore;
  b: AuthorizationStore;
  close?(): Promise<void>;
}

const id = () => randomBytes(16).toString("base64url");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function grant(overrides: Partial<GrantRecord> = {}): GrantRecord {
  return {
    id: id(),
    clientId: "client-1",
    subject: "github:583231",
    expiresAt: Date.now() + 60_000,
    sealed: `v1.${id()}`,
    ...overrides,
  };
}

async function withPair(
  make: () => AuthorizationStorePair | Promise<AuthorizationStorePair>,
  run: (pair: AuthorizationStorePair) => Promise<void>,
) {
  const pair = await make();
  try {
    await run(pair);
  } finally {
    await pair.close?.();
  }
}

/** Polls until `gone` says so; resolves with when (Date.now()). */
async function goneAt(gone: () => Promise<boolean>, withinMs: number, what: string): Promise<number> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await gone()) return Date.now();
    await sleep(20);
  }
  throw new Error(`${what} still stored after ${withinMs} ms`);
}

/**
 * What every AuthorizationStore must do for an authorization server's nodes to share one
 * state: records and grants seen through either handle, expiring on time with no sweeper,
 * a code or sign-in used exactly once however many nodes race for it, refresh tokens
 * rotated atomically with a replay ending the whole family, signing keys shared, and the
 * counts behind the server's limits agreeing across nodes, all or none, exact under
 * concurrency; and the pools that bound what is kept (authorization-store-pools.ts).
 */
export function authorizationStoreContract(
  make: () => AuthorizationStorePair | Promise<AuthorizationStorePair>,
): ContractCase[] {
  return [
    {
      name: "a record put through one handle is read through the other, replaced by a later put, kept apart by kind",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const key = id();
          await a.put("client", key, '{"client_id":"one"}', 60_000);
          await a.put("code", key, "sealed-code", 60_000);
          assert.equal(await b.get("client", key), '{"client_id":"one"}');
          assert.equal(await b.get("code", key), "sealed-code");
          assert.equal(await b.get("request", key), undefined);
          await b.put("client", key, '{"client_id":"two"}', 60_000);
          assert.equal(await a.get("client", key), '{"client_id":"two"}');
          await a.delete("client", key);
          assert.equal(await b.get("client", key), undefined);
          assert.equal(await b.get("code", key), "sealed-code");
        }),
    },
    {
      name: "a record expires after its ttl, with no sweeper",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const key = id();
          const start = Date.now();
          await a.put("request", key, "sign-in", 400);
          assert.equal(await b.get("request", key), "sign-in");
          const gone = await goneAt(async () => (await b.get("request", key)) === undefined, 5000, "the record");
          assert.ok(gone - start >= 360, `expired after ${gone - start} ms, before its ttl of 400 ms`);
          assert.equal(await b.consume("request", key), undefined);
        }),
    },
    {
      name: "a record is consumed once: the first use says first, every later one (on any handle) says it was used",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const key = id();
          assert.equal(await a.consume("code", key), undefined);
          await a.put("code", key, "sealed-code", 60_000);
          assert.deepEqual(await b.consume("code", key), { value: "sealed-code", first: true });
          assert.deepEqual(await a.consume("code", key), { value: "sealed-code", first: false });
          assert.deepEqual(await b.consume("code", key), { value: "sealed-code", first: false });
        }),
    },
    {
      name: "of many concurrent uses of one record, across handles, exactly one is first",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const key = id();
          await a.put("code", key, "sealed-code", 60_000);
          const uses = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).consume("code", key)));
          assert.equal(uses.filter((u) => u?.first === true).length, 1);
          assert.equal(uses.filter((u) => u?.first === false).length, 19);
        }),
    },
    {
      name: "a grant is found through the other handle, and by each of its refresh tokens",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const g = grant();
          await a.createGrant(g, "refresh-1");
          assert.deepEqual(await b.grant(g.id), g);
          assert.equal(await b.grantOfRefresh("refresh-1"), g.id);
          assert.equal(await b.grant(id()), undefined);
          assert.equal(await b.grantOfRefresh("unknown"), undefined);
        }),
    },
    {
      name: "rotating the current refresh token replaces it; the spent one still names the grant",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const g = grant();
          await a.createGrant(g, "r1");
          assert.deepEqual(await b.rotateRefresh("r1", "r2"), { status: "rotated", grant: g });
          assert.deepEqual(await a.rotateRefresh("r2", "r3"), { status: "rotated", grant: g });
          assert.equal(await b.grantOfRefresh("r1"), g.id);
          assert.equal(await b.grantOfRefresh("r3"), g.id);
        }),
    },
    {
      name: "a spent refresh token presented again ends the whole family, on every handle",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const g = grant();
          await a.createGrant(g, "r1");
          await a.rotateRefresh("r1", "r2");
          assert.deepEqual(await b.rotateRefresh("r1", "r9"), { status: "reused", grantId: g.id });
          assert.equal(await a.grant(g.id), undefined);
          assert.deepEqual(await a.rotateRefresh("r2", "r3"), { status: "unknown" });
          assert.deepEqual(await b.rotateRefresh("never-issued", "x"), { status: "unknown" });
        }),
    },
    {
      name: "of concurrent rotations of one refresh token, one rotates and the rest end the family",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const g = grant();
          await a.createGrant(g, "r1");
          const outcomes = await Promise.all(
            Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).rotateRefresh("r1", `next-${i}`)),
          );
          assert.equal(outcomes.filter((o) => o.status === "rotated").length, 1);
          assert.ok(outcomes.some((o) => o.status === "reused"));
          assert.equal(await b.grant(g.id), undefined);
        }),
    },
    {
      name: "a grant and its refresh tokens end at its expiry, with no sweeper",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const start = Date.now();
          const g = grant({ expiresAt: start + 400 });
          await a.createGrant(g, "short-1");
          assert.deepEqual(await b.grant(g.id), g);
          const gone = await goneAt(async () => (await b.grant(g.id)) === undefined, 5000, "the grant");
          assert.ok(gone - start >= 360, `ended after ${gone - start} ms, before its expiry at 400 ms`);
          assert.deepEqual(await a.rotateRefresh("short-1", "short-2"), { status: "unknown" });
        }),
    },
    {
      name: "updating a grant replaces its sealed details, and is refused for an ended one",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const g = grant();
          await a.createGrant(g, "u1");
          assert.equal(await b.updateGrant(g.id, "v1.updated"), true);
          assert.equal((await a.grant(g.id))?.sealed, "v1.updated");
          // A rotation after the update carries the update.
          const rotated = await a.rotateRefresh("u1", "u2");
          assert.equal(rotated.status === "rotated" && rotated.grant.sealed, "v1.updated");
          assert.equal(await a.revokeGrant(g.id), true);
          assert.equal(await b.updateGrant(g.id, "v1.late"), false);
          assert.equal(await b.grant(g.id), undefined);
        }),
    },
    {
      name: "revoking ends the grant for every handle, once",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const g = grant();
          await a.createGrant(g, "v1");
          assert.equal(await b.revokeGrant(g.id), true);
          assert.equal(await a.revokeGrant(g.id), false);
          assert.equal(await a.grant(g.id), undefined);
          assert.deepEqual(await a.rotateRefresh("v1", "v2"), { status: "unknown" });
        }),
    },
    {
      name: "admit counts members of a group through either handle and refuses one beyond its max, saying when room comes",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const group = `g-${id()}`;
          const limit = { group, max: 3, ttlMs: 60_000 };
          for (const member of ["m1", "m2"]) assert.deepEqual(await a.admit(member, [limit]), { admitted: true });
          assert.deepEqual(await b.admit("m3", [limit]), { admitted: true });
          const refused = await a.admit("m4", [limit]);
          assert.equal(refused.admitted, false);
          assert.ok(!refused.admitted && refused.group === group);
          assert.ok(
            !refused.admitted && refused.retryAfterMs > 55_000 && refused.retryAfterMs <= 60_000,
            `retry after ${!refused.admitted && refused.retryAfterMs} ms, not when the oldest member leaves`,
          );
          // Another group counts apart.
          assert.deepEqual(await b.admit("m4", [{ ...limit, group: `${group}-other` }]), { admitted: true });
        }),
    },
    {
      name: "a member already in a group is admitted again without counting twice",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const limit = { group: `g-${id()}`, max: 2, ttlMs: 60_000 };
          await a.admit("same", [limit]);
          assert.deepEqual(await b.admit("same", [limit]), { admitted: true });
          assert.deepEqual(await a.admit("other", [limit]), { admitted: true });
          assert.deepEqual(await b.admit("same", [limit]), { admitted: true });
          assert.equal((await b.admit("third", [limit])).admitted, false);
        }),
    },
    {
      name: "admission to several groups is all or none: refused by one full group, counted in no other",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const roomy = { group: `roomy-${id()}`, max: 2, ttlMs: 60_000 };
          const full = { group: `full-${id()}`, max: 1, ttlMs: 60_000 };
          await a.admit("first", [full]);
          for (const member of ["x", "y", "z"]) {
            const refused = await b.admit(member, [roomy, full]);
            assert.ok(!refused.admitted && refused.group === full.group);
          }
          // Had the refused ones been counted in `roomy`, it would be full now.
          assert.deepEqual(await a.admit("p", [roomy]), { admitted: true });
          assert.deepEqual(await a.admit("q", [roomy]), { admitted: true });
          assert.equal((await b.admit("r", [roomy])).admitted, false);
        }),
    },
    {
      name: "of many concurrent admissions across handles, exactly max are admitted",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const limit = { group: `g-${id()}`, max: 7, ttlMs: 60_000 };
          const outcomes = await Promise.all(
            Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).admit(`m${i}`, [limit])),
          );
          assert.equal(outcomes.filter((o) => o.admitted).length, 7);
        }),
    },
    {
      name: "a member leaves its group after its ttl, making room, with no sweeper",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const start = Date.now();
          const group = `g-${id()}`;
          const limit = { group, max: 2, ttlMs: 400 };
          assert.deepEqual(await a.admit("early", [limit]), { admitted: true });
          // A member that stays longer keeps the group alive while the early one leaves.
          assert.deepEqual(await b.admit("staying", [{ group, max: 2, ttlMs: 60_000 }]), { admitted: true });
          assert.equal((await b.admit("late", [limit])).admitted, false);
          const room = await goneAt(async () => (await b.admit("late", [limit])).admitted, 5000, "the member");
          assert.ok(room - start >= 360, `room after ${room - start} ms, before the member's ttl of 400 ms`);
          assert.equal((await a.admit("later", [limit])).admitted, false);
        }),
    },
    {
      name: "signing keys added through one handle are listed by the other, oldest first, until removed",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const key = (createdAt: number): SigningKeyRecord => ({
            kid: id(),
            createdAt,
            publicJwk: { kty: "EC", crv: "P-256", x: id(), y: id() },
            sealedPrivateJwk: `v1.${id()}`,
          });
          const before = (await a.signingKeys()).length;
          const newer = key(Date.now());
          const older = key(Date.now() - 1000);
          await a.addSigningKey(newer);
          await b.addSigningKey(older);
          const listed = (await b.signingKeys()).filter((k) => k.kid === newer.kid || k.kid === older.kid);
          assert.deepEqual(listed, [older, newer]);
          await a.removeSigningKey(older.kid);
          assert.deepEqual(
            (await b.signingKeys()).map((k) => k.kid).filter((k) => k === older.kid || k === newer.kid),
            [newer.kid],
          );
          await a.removeSigningKey(newer.kid);
          assert.equal((await b.signingKeys()).length, before);
        }),
    },
    ...poolContract((run) => withPair(make, run)),
  ];
}
