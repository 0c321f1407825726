import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { AuthorizationStore, Enlistment, PoolLimit } from "../../auth/server/authorization/store.js";
import type { ContractCase } from "./case.js";

const id = () => randomBytes(16).toString("base64url");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The members an enlistment evicted (failing when it was refused). */
function evicted(enlistment: Enlistment): string[] {
  assert.ok(enlistment.admitted, `refused: ${JSON.stringify(enlistment)}`);
  return enlistment.evicted;
}

/** Which of `members` are still in `pool` (each taken out by the asking). */
async function held(store: AuthorizationStore, pool: string, members: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const m of members) if (await store.leave(pool, m)) out.push(m);
  return out;
}

/**
 * The pools (`enlist`, `leave`) an authorization server keeps unused registrations,
 * sign-ins under way and rate counts in: bounded, never refusing for want of room (the
 * owner holding the most gives way, oldest first), an owner's share, expiry with no
 * sweeper, exact under concurrency across handles. The flood the server meets is these
 * cases at scale: an attacker's many addresses cannot push out a newcomer who holds less.
 */
export function poolContract(
  withPair: (run: (pair: { a: AuthorizationStore; b: AuthorizationStore }) => Promise<void>) => Promise<void>,
): ContractCase[] {
  const limit = (overrides: Partial<PoolLimit> = {}): PoolLimit => ({
    pool: `p-${id()}`,
    max: 5,
    ttlMs: 60_000,
    ...overrides,
  });
  return [
    {
      name: "a pool counts members of every handle; at its max the oldest of the owner holding the most gives way, never the newcomer",
      run: () =>
        withPair(async ({ a, b }) => {
          const pool = limit();
          for (const m of ["a1", "a2", "a3"]) assert.deepEqual(evicted(await a.enlist(m, "A", pool)), []);
          for (const m of ["b1", "b2"]) assert.deepEqual(evicted(await b.enlist(m, "B", pool)), []);
          assert.deepEqual(evicted(await a.enlist("c1", "C", pool)), ["a1"]);
          const next = evicted(await b.enlist("c2", "C", pool));
          assert.equal(next.length, 1);
          assert.ok(["a2", "b1"].includes(next[0] as string), `evicted ${next}, not the oldest of A or B (2 each)`);
          assert.deepEqual(await held(a, pool.pool, ["a1", "c1", "c2"]), ["c1", "c2"]);
        }),
    },
    {
      name: "a newcomer holding one keeps it while a crowd of owners churns the full pool, each holding more",
      run: () =>
        withPair(async ({ a, b }) => {
          const pool = limit({ max: 10 });
          const crowd = ["w", "x", "y", "z", "v"];
          for (let round = 0; round < 4; round++)
            for (const owner of crowd) await (round % 2 ? a : b).enlist(`${owner}${round}`, owner, pool);
          assert.deepEqual(evicted(await a.enlist("newcomer", "N", pool)).length, 1);
          // The crowd goes on: oldest-first alone would push the newcomer out now.
          for (let round = 4; round < 8; round++)
            for (const owner of crowd) await (round % 2 ? a : b).enlist(`${owner}${round}`, owner, pool);
          assert.deepEqual(await held(b, pool.pool, ["newcomer"]), ["newcomer"]);
        }),
    },
    {
      name: "an owner at its share gives way itself, or, in a rate, its newcomer is refused until its oldest leaves; other owners are not touched",
      run: () =>
        withPair(async ({ a, b }) => {
          const own = limit({ max: 100, maxPerOwner: 2 });
          await a.enlist("a1", "A", own);
          await b.enlist("b1", "B", own);
          await b.enlist("a2", "A", own);
          assert.deepEqual(evicted(await a.enlist("a3", "A", own)), ["a1"]);
          assert.deepEqual(evicted(await a.enlist("b2", "B", own)), []);
          const rate = limit({ max: 100, maxPerOwner: 2, rate: true });
          await a.enlist("r1", "A", rate);
          await b.enlist("r2", "A", rate);
          const refused = await a.enlist("r3", "A", rate);
          assert.ok(!refused.admitted, "the third of A was admitted");
          assert.ok(
            refused.retryAfterMs > 55_000 && refused.retryAfterMs <= 60_000,
            `retry after ${refused.retryAfterMs} ms, not when A's oldest leaves`,
          );
          assert.deepEqual(evicted(await b.enlist("s1", "B", rate)), []);
          // Refused is not counted: after A's oldest leaves, A has room for exactly one.
          assert.equal(await a.leave(rate.pool, "r1"), true);
          assert.deepEqual(evicted(await b.enlist("r4", "A", rate)), []);
          assert.equal((await a.enlist("r5", "A", rate)).admitted, false);
        }),
    },
    {
      name: "a rate at its max forgets its oldest request, so an owner sending more than the rest is still refused at its share",
      run: () =>
        withPair(async ({ a, b }) => {
          const rate = limit({ max: 5, maxPerOwner: 3, rate: true });
          for (const owner of ["o1", "o2", "o3"]) await a.enlist(`${owner}-1`, owner, rate);
          await b.enlist("x1", "X", rate);
          await a.enlist("x2", "X", rate);
          // Full: X's third makes room by forgetting the oldest request (o1's), not one of X's own.
          assert.deepEqual(evicted(await b.enlist("x3", "X", rate)), ["o1-1"]);
          assert.equal((await a.enlist("x4", "X", rate)).admitted, false);
          assert.deepEqual(await held(b, rate.pool, ["x1", "x2", "x3", "o1-1"]), ["x1", "x2", "x3"]);
        }),
    },
    {
      name: "leave takes a member out once, on either handle, and makes room",
      run: () =>
        withPair(async ({ a, b }) => {
          const pool = limit({ max: 2 });
          await a.enlist("p", "A", pool);
          await a.enlist("q", "B", pool);
          assert.equal(await b.leave(pool.pool, "p"), true);
          assert.equal(await a.leave(pool.pool, "p"), false);
          assert.equal(await a.leave(pool.pool, "never"), false);
          assert.equal(await a.leave(`other-${id()}`, "q"), false);
          assert.deepEqual(evicted(await b.enlist("r", "C", pool)), []);
        }),
    },
    {
      name: "a member enlisted again is renewed and counted once",
      run: () =>
        withPair(async ({ a, b }) => {
          const pool = limit({ max: 3, maxPerOwner: 2 });
          await a.enlist("s", "A", pool);
          assert.deepEqual(evicted(await b.enlist("s", "A", pool)), []);
          assert.deepEqual(evicted(await a.enlist("t", "A", pool)), []);
          // A holds s and t (s counted once): its third gives way its oldest, s.
          assert.deepEqual(evicted(await b.enlist("u", "A", pool)), ["s"]);
        }),
    },
    {
      name: "members leave after their ttl with no sweeper, making room without evicting",
      run: () =>
        withPair(async ({ a, b }) => {
          const pool = limit({ max: 2, ttlMs: 400 });
          const start = Date.now();
          await a.enlist("e1", "A", pool);
          await b.enlist("e2", "B", pool);
          // A record put after them, for as long: gone, so are they (one clock).
          const marker = id();
          await a.put("request", marker, "x", 400);
          while ((await b.get("request", marker)) !== undefined) {
            assert.ok(Date.now() - start < 5000, "the marker record is still stored after 5 s");
            await sleep(20);
          }
          assert.deepEqual(evicted(await b.enlist("e3", "C", pool)), []);
          assert.deepEqual(evicted(await a.enlist("e4", "C", { ...pool, ttlMs: 60_000 })), []);
          assert.deepEqual(await held(a, pool.pool, ["e1", "e2", "e3", "e4"]), ["e3", "e4"]);
        }),
    },
    {
      name: "of many concurrent enlistments across handles, the pool keeps max, and each other member is evicted exactly once",
      run: () =>
        withPair(async ({ a, b }) => {
          const pool = limit({ max: 7 });
          const members = Array.from({ length: 30 }, (_, i) => `m${i}`);
          const outcomes = await Promise.all(members.map((m, i) => (i % 2 ? a : b).enlist(m, `owner-${i % 10}`, pool)));
          const gone = outcomes.flatMap(evicted);
          assert.equal(new Set(gone).size, gone.length, `evicted twice: ${gone}`);
          assert.equal(gone.length, 23);
          const kept = await held(a, pool.pool, members);
          assert.equal(kept.length, 7);
          assert.deepEqual(
            kept.filter((m) => gone.includes(m)),
            [],
          );
        }),
    },
  ];
}
