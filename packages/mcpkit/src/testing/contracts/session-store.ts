import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { SessionChange, SessionMessage, SessionRecord, SessionStore } from "../../server/session-store.js";
import { type ContractCase, waitFor } from "./case.js";

/**
 * Two stores over the same data: the same object twice for the in-memory store, two
 * connections (two nodes) for a shared one such as Redis. `close` releases them.
 */
export interface SessionStorePair {
  a: SessionStore;
  b: SessionStore;
  close?(): Promise<void>;
}

const TOLD_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function record(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id: randomBytes(32).toString("base64url"),
    revision: "2025-06-18",
    clientInfo: { name: "contract-client", version: "1.2.3" },
    clientCapabilities: { elicitation: {}, roots: { listChanged: true } },
    logLevel: "warning",
    subscriptions: ["file:///a.txt", "file:///b.txt"],
    principal: "user-1",
    initialized: true,
    ...overrides,
  };
}

/** Collects the changes a store is told of and lets a case wait for one. */
function watching(store: SessionStore) {
  const seen: SessionChange[] = [];
  const waiters = new Set<(change: SessionChange) => void>();
  const stop = store.watch((change) => {
    seen.push(change);
    for (const w of waiters) w(change);
  });
  const next = (id: string, kind: SessionChange["kind"]) =>
    seen.find((c) => c.id === id && c.kind === kind) ??
    waitFor<SessionChange>(
      (deliver) => {
        waiters.add(deliver);
        return () => waiters.delete(deliver);
      },
      (c) => c.id === id && c.kind === kind,
      TOLD_MS,
      `"${kind}" of session ${id}`,
    );
  return { seen, stop, next };
}

/** What a factory is given: where the stores it makes report a watcher's failure. */
export interface SessionStoreSetup {
  onError(error: unknown): void;
}

export type MakeSessionStores = (setup: SessionStoreSetup) => SessionStorePair | Promise<SessionStorePair>;

async function withPair(
  make: MakeSessionStores,
  run: (pair: SessionStorePair) => Promise<void>,
  setup?: SessionStoreSetup,
) {
  const pair = await make(setup ?? { onError: (error) => assert.fail(`unexpected store error: ${String(error)}`) });
  try {
    await run(pair);
  } finally {
    await pair.close?.();
  }
}

/** Polls until the record is gone; resolves with when that was seen (Date.now()). */
async function goneAt(store: SessionStore, id: string, withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if ((await store.load(id)) === undefined) return Date.now();
    await sleep(20);
  }
  throw new Error(`session ${id} still stored after ${withinMs} ms`);
}

/**
 * What every SessionStore must do for a legacy session opened on one node to be served,
 * changed and ended on any other, and to expire when idle without a sweeper.
 */
export function sessionStoreContract(make: MakeSessionStores): ContractCase[] {
  return [
    {
      name: "a saved record loads unchanged through the other store",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const saved = record();
          await a.save(saved, 60_000);
          assert.deepEqual(await b.load(saved.id), saved);
          const bare = record({ clientInfo: undefined, logLevel: undefined, principal: undefined, subscriptions: [] });
          delete bare.clientInfo;
          delete bare.logLevel;
          delete bare.principal;
          await b.save(bare, 60_000);
          assert.deepEqual(await a.load(bare.id), bare);
        }),
    },
    {
      name: "an id never saved loads as undefined and cannot be touched",
      run: () =>
        withPair(make, async ({ a }) => {
          const id = randomBytes(32).toString("base64url");
          assert.equal(await a.load(id), undefined);
          assert.equal(await a.touch(id, 60_000), false);
          assert.equal(await a.delete(id), false);
        }),
    },
    {
      name: "saving again replaces the record, and records of other sessions are kept apart",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const first = record();
          const other = record({ principal: "user-2" });
          await a.save(first, 60_000);
          await a.save(other, 60_000);
          const changed = { ...first, logLevel: "debug" as const, subscriptions: ["file:///c.txt"] };
          await b.save(changed, 60_000);
          assert.deepEqual(await a.load(first.id), changed);
          assert.deepEqual(await a.load(other.id), other);
        }),
    },
    {
      name: "a record neither saved nor touched for its ttl expires, with no sweeper",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const ttl = 400;
          const saved = record();
          const start = Date.now();
          await a.save(saved, ttl);
          assert.deepEqual(await b.load(saved.id), saved);
          const gone = await goneAt(b, saved.id, 5000);
          assert.ok(gone - start >= ttl * 0.9, `expired after ${gone - start} ms, before its ttl of ${ttl} ms`);
        }),
    },
    {
      name: "touching pushes the expiry back",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const ttl = 800;
          const saved = record();
          const start = Date.now();
          await a.save(saved, ttl);
          await sleep(ttl / 2);
          const touched = Date.now();
          assert.equal(await b.touch(saved.id, ttl), true);
          // Past the first expiry but within the second: still there.
          await sleep(Math.max(0, start + ttl * 1.2 - Date.now()));
          const present = await a.load(saved.id);
          if (Date.now() - touched < ttl * 0.9) assert.deepEqual(present, saved);
          const gone = await goneAt(a, saved.id, 5000);
          assert.ok(gone - touched >= ttl * 0.9, `expired ${gone - touched} ms after the touch, ttl ${ttl} ms`);
        }),
    },
    {
      name: "deleting ends the session for every store, and every store is told",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const saved = record();
          await a.save(saved, 60_000);
          const told = watching(a);
          assert.equal(await b.delete(saved.id), true);
          assert.equal(await a.load(saved.id), undefined);
          assert.equal(await a.touch(saved.id, 60_000), false);
          assert.equal(await a.delete(saved.id), false);
          await told.next(saved.id, "ended");
          told.stop();
        }),
    },
    {
      name: "a save is told to every store, so nodes holding the session reload it",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const told = watching(b);
          const saved = record();
          await a.save(saved, 60_000);
          await told.next(saved.id, "saved");
          told.stop();
        }),
    },
    {
      name: "a relayed message reaches the other store's watchers unchanged",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const told = watching(b);
          const id = randomBytes(32).toString("base64url");
          const relayed: SessionMessage = {
            id,
            kind: "message",
            to: "node-b",
            from: "node-a",
            message: { jsonrpc: "2.0", id: "node-a.7", result: { action: "accept", content: { n: 1 } } },
          };
          await a.relay(relayed);
          assert.deepEqual(await told.next(id, "message"), relayed);
          told.stop();
        }),
    },
    {
      name: "a node is alive within its heartbeat's ttl, and not after it",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const node = `node-${randomBytes(6).toString("base64url")}`;
          assert.equal(await b.alive(node), false);
          const start = Date.now();
          await a.heartbeat(node, 400);
          const alive = await b.alive(node);
          if (Date.now() - start < 360) assert.equal(alive, true);
          const deadline = Date.now() + 5000;
          while ((await b.alive(node)) && Date.now() < deadline) await sleep(20);
          assert.equal(await b.alive(node), false);
          assert.ok(Date.now() - start >= 360, "a node stays alive for its heartbeat's ttl");
        }),
    },
    {
      name: "a stopped watcher is told nothing more",
      run: () =>
        withPair(make, async ({ a, b }) => {
          const stopped = watching(b);
          const still = watching(b);
          const first = record();
          await a.save(first, 60_000);
          await stopped.next(first.id, "saved");
          stopped.stop();
          const second = record();
          await a.save(second, 60_000);
          // The other watcher heard it, so it was told: the stopped one must not have been.
          await still.next(second.id, "saved");
          assert.equal(
            stopped.seen.some((c) => c.id === second.id),
            false,
          );
          still.stop();
        }),
    },
    {
      name: "a watcher that throws is reported, and the other watchers are still told",
      run: () => {
        const reported: unknown[] = [];
        return withPair(
          make,
          async ({ a, b }) => {
            const failing = b.watch(() => {
              throw new Error("this watcher fails");
            });
            const still = watching(b);
            const saved = record();
            await a.save(saved, 60_000);
            await still.next(saved.id, "saved");
            failing();
            still.stop();
            assert.ok(
              reported.some((e) => e instanceof Error && e.message === "this watcher fails"),
              "the failure reached onError",
            );
          },
          { onError: (error) => reported.push(error) },
        );
      },
    },
  ];
}
