import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { TaskLimitError, type TaskRecord, type TaskStore } from "../../server/tasks/store.js";
import { type ContractCase, waitFor } from "./case.js";

/**
 * Two handles on one store: the same object in memory, two connections (two nodes) for
 * a shared store such as Redis. Both must measure TTLs with `now`, the clock the cases
 * move forward.
 */
export interface TaskStorePair {
  a: TaskStore;
  b: TaskStore;
  close?(): Promise<void>;
}

export type MakeTaskStores = (options: { now: () => number }) => TaskStorePair | Promise<TaskStorePair>;

const WATCH_MS = 5000;

function task(now: number, over: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId: `contract-${randomUUID()}`,
    method: "tools/call",
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 500,
    ...over,
  };
}

const ask = { method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object" } } };

async function withStores(make: MakeTaskStores, run: (pair: TaskStorePair, clock: Clock) => Promise<void>) {
  const clock = new Clock();
  const pair = await make({ now: () => clock.time });
  try {
    await run(pair, clock);
  } finally {
    await pair.close?.();
  }
}

/**
 * What a store shared by nodes must do for a node's death to be noticed: a node's running
 * tasks become orphans once its heartbeat lapses (on the injected clock), ended tasks and
 * tasks of live nodes never do.
 */
export function taskLeaseContract(make: MakeTaskStores): ContractCase[] {
  const c = (name: string, run: (pair: TaskStorePair, clock: Clock) => Promise<void>): ContractCase => ({
    name,
    run: () => withStores(make, run),
  });
  const heartbeat = (store: TaskStore, node: string, ttlMs: number) => {
    assert.ok(store.heartbeat && store.orphans, "the store keeps node heartbeats");
    return store.heartbeat(node, ttlMs);
  };
  const orphanIds = async (store: TaskStore) => ((await store.orphans?.()) ?? []).map((t) => t.taskId).sort();
  return [
    c(
      "a node's running tasks are orphans once its heartbeat lapses, seen through either handle",
      async ({ a, b }, clock) => {
        const dying = `node-${randomUUID()}`;
        const living = `node-${randomUUID()}`;
        await heartbeat(a, dying, 1000);
        await heartbeat(b, living, 5000);
        const running = task(clock.time, { node: dying });
        const asking = task(clock.time, { node: dying });
        const done = task(clock.time, { node: dying });
        const elsewhere = task(clock.time, { node: living });
        for (const t of [running, asking, done, elsewhere]) await a.create(t);
        await a.update(asking.taskId, { ask: { q: ask } });
        await a.update(done.taskId, { status: "completed", result: { content: [] } });
        assert.deepEqual(await orphanIds(b), [], "no heartbeat has lapsed yet");
        clock.time += 999;
        await heartbeat(a, dying, 1000); // beating again pushes the lease back
        clock.time += 999;
        assert.deepEqual(await orphanIds(a), []);
        clock.time += 1;
        assert.deepEqual(await orphanIds(b), [running.taskId, asking.taskId].sort());
        await b.update(running.taskId, { status: "failed", error: { code: -32603, message: "its node died" } });
        assert.deepEqual(await orphanIds(a), [asking.taskId]);
      },
    ),
  ];
}

class Clock {
  time = 1_800_000_000_000;
}

/** What every TaskStore must do for tasks to be polled, answered and cancelled on any node. */
export function taskStoreContract(make: MakeTaskStores): ContractCase[] {
  const c = (name: string, run: (pair: TaskStorePair, clock: Clock) => Promise<void>): ContractCase => ({
    name,
    run: () => withStores(make, run),
  });
  return [
    c("a created task is found at once, through either handle, unchanged", async ({ a, b }, clock) => {
      const t = task(clock.time, { owner: "alice", statusMessage: "starting" });
      await a.create(t);
      assert.deepEqual(await b.get(t.taskId), t);
      assert.deepEqual(await a.get(t.taskId), t);
    }),
    c("an unknown task is undefined to get and update", async ({ a }) => {
      assert.equal(await a.get("no-such-task"), undefined);
      assert.equal(await a.update("no-such-task", { status: "cancelled" }), undefined);
    }),
    c("creating a task id twice is refused", async ({ a, b }, clock) => {
      const t = task(clock.time);
      await a.create(t);
      await assert.rejects(b.create({ ...t, statusMessage: "again" }));
      assert.equal((await a.get(t.taskId))?.statusMessage, undefined);
    }),
    c("update returns the task as it is afterwards and stamps lastUpdatedAt", async ({ a, b }, clock) => {
      const t = task(clock.time);
      await a.create(t);
      clock.time += 1000;
      const after = await b.update(t.taskId, { statusMessage: "half way" });
      assert.equal(after?.statusMessage, "half way");
      assert.equal(after?.lastUpdatedAt, clock.time);
      assert.equal(after?.createdAt, t.createdAt);
      assert.deepEqual(await a.get(t.taskId), after);
    }),
    c(
      "asking makes the task input_required; answers move keys one by one, then back to working",
      async ({ a, b }, clock) => {
        const t = task(clock.time);
        await a.create(t);
        const asked = await a.update(t.taskId, { ask: { first: ask, second: ask }, statusMessage: "waiting" });
        assert.equal(asked?.status, "input_required");
        assert.deepEqual(Object.keys(asked?.inputRequests ?? {}).sort(), ["first", "second"]);
        const partly = await b.update(t.taskId, { answer: { first: { action: "accept" }, unknown: { action: "x" } } });
        assert.equal(partly?.status, "input_required");
        assert.deepEqual(Object.keys(partly?.inputRequests ?? {}), ["second"]);
        assert.deepEqual(partly?.inputResponses, { first: { action: "accept" } });
        const again = await b.update(t.taskId, { answer: { first: { action: "decline" } } });
        assert.deepEqual(
          again?.inputResponses,
          { first: { action: "accept" } },
          "an answered key is not answered twice",
        );
        const done = await b.update(t.taskId, { answer: { second: { action: "cancel" } } });
        assert.equal(done?.status, "working");
        assert.equal(done?.inputRequests, undefined);
        assert.deepEqual(done?.inputResponses, { first: { action: "accept" }, second: { action: "cancel" } });
        const taken = await a.update(t.taskId, { take: ["first", "second"] });
        assert.equal(taken?.inputResponses, undefined);
      },
    ),
    c("a terminal task never changes again", async ({ a, b }, clock) => {
      const t = task(clock.time);
      await a.create(t);
      const result = { content: [{ type: "text", text: "done" }] };
      await a.update(t.taskId, { status: "completed", result });
      const after = await b.update(t.taskId, { status: "cancelled", statusMessage: "too late" });
      assert.equal(after?.status, "completed");
      assert.deepEqual(after?.result, result);
      assert.equal(after?.statusMessage, undefined);
      const cancelled = task(clock.time);
      await a.create(cancelled);
      await b.update(cancelled.taskId, { status: "cancelled" });
      const late = await a.update(cancelled.taskId, { status: "completed", result });
      assert.equal(late?.status, "cancelled");
      assert.equal(late?.result, undefined);
    }),
    c("a failed task keeps its JSON-RPC error", async ({ a, b }, clock) => {
      const t = task(clock.time);
      await a.create(t);
      await a.update(t.taskId, { status: "failed", error: { code: -32603, message: "boom" } });
      const seen = await b.get(t.taskId);
      assert.equal(seen?.status, "failed");
      assert.deepEqual(seen?.error, { code: -32603, message: "boom" });
    }),
    c("a watcher hears changes made through the other handle, in order", async ({ a, b }, clock) => {
      const t = task(clock.time);
      await a.create(t);
      const seen: TaskRecord[] = [];
      const listeners = new Set<(r: TaskRecord) => void>();
      const stop = a.watch(t.taskId, (r) => {
        seen.push(r);
        for (const l of listeners) l(r);
      });
      try {
        const cancelled = waitFor<TaskRecord>(
          (deliver) => {
            listeners.add(deliver);
            return () => listeners.delete(deliver);
          },
          (r) => r.status === "cancelled",
          WATCH_MS,
          "the cancellation made on the other handle",
        );
        await b.update(t.taskId, { statusMessage: "one" });
        await b.update(t.taskId, { status: "cancelled" });
        await cancelled;
        assert.deepEqual(
          seen.map((r) => r.statusMessage ?? r.status),
          ["one", "one"],
        );
        assert.deepEqual(
          seen.map((r) => r.status),
          ["working", "cancelled"],
        );
      } finally {
        stop();
      }
    }),
    c("no delivery after unwatching", async ({ a, b }, clock) => {
      const t = task(clock.time);
      await a.create(t);
      const seen: TaskRecord[] = [];
      const listeners = new Set<(r: TaskRecord) => void>();
      const stopFirst = a.watch(t.taskId, (r) => seen.push(r));
      const stopSecond = a.watch(t.taskId, (r) => {
        for (const l of listeners) l(r);
      });
      stopFirst();
      const heard = waitFor<TaskRecord>(
        (deliver) => {
          listeners.add(deliver);
          return () => listeners.delete(deliver);
        },
        (r) => r.statusMessage === "after",
        WATCH_MS,
        "the change after unwatching",
      );
      await b.update(t.taskId, { statusMessage: "after" });
      await heard; // the remaining watcher heard it, so the removed one would have too
      stopSecond();
      assert.deepEqual(seen, []);
    }),
    c("a task past its TTL is gone; a null TTL never expires", async ({ a, b }, clock) => {
      const short = task(clock.time, { ttlMs: 1000, owner: "ttl-owner" });
      const forever = task(clock.time, { ttlMs: null, owner: "ttl-owner" });
      await a.create(short);
      await a.create(forever);
      clock.time += 999;
      assert.equal((await b.get(short.taskId))?.taskId, short.taskId, "still there before the TTL");
      clock.time += 1;
      assert.equal(await b.get(short.taskId), undefined);
      assert.equal(await a.update(short.taskId, { status: "cancelled" }), undefined);
      clock.time += 365 * 24 * 3600_000;
      assert.equal((await b.get(forever.taskId))?.taskId, forever.taskId);
      const listed = await b.list("ttl-owner");
      assert.deepEqual(
        listed.tasks.map((t) => t.taskId),
        [forever.taskId],
      );
    }),
    c("list shows one owner's tasks only, oldest first, page by page", async ({ a, b }, clock) => {
      const owner = `owner-${randomUUID()}`;
      const mine: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.time += 1;
        const t = task(clock.time, { owner });
        await a.create(t);
        mine.push(t.taskId);
        await b.create(task(clock.time, { owner: `${owner}-other` }));
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await b.list(owner, { limit: 2, ...(cursor !== undefined && { cursor }) });
        assert.ok(page.tasks.length <= 2);
        seen.push(...page.tasks.map((t) => t.taskId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined && pages < 10);
      assert.deepEqual(seen, mine);
      assert.equal(pages, 3);
      await assert.rejects(b.list(owner, { cursor: "a cursor the store never gave" }), RangeError);
    }),
    c("a cursor never crosses owners: another owner's task id is an unknown cursor", async ({ a, b }, clock) => {
      const owner = `owner-${randomUUID()}`;
      const theirs: string[] = [];
      for (let i = 0; i < 4; i++) {
        const t = task(clock.time, { owner: `${owner}-other` });
        await a.create(t);
        theirs.push(t.taskId);
      }
      const mine = task(clock.time, { owner });
      await a.create(mine);
      const page = await b.list(owner, { limit: 1 });
      assert.deepEqual(page, { tasks: [mine] }, "one task of mine, and no cursor naming another's");
      await assert.rejects(b.list(owner, { cursor: theirs[1] as string }), RangeError);
      assert.deepEqual(await b.list(`${owner}-nobody`), { tasks: [] });
    }),
    c("a quota counts a client's live tasks atomically, across handles", async ({ a, b }, clock) => {
      const client = `client-${randomUUID()}`;
      const quota = { client, max: 5 };
      const attempts = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).create(task(clock.time, { ttlMs: 1000 }), quota)),
      );
      const refused = attempts.filter((r) => r.status === "rejected");
      assert.equal(attempts.length - refused.length, 5, "exactly the quota is stored");
      for (const r of refused) assert.ok((r as PromiseRejectedResult).reason instanceof TaskLimitError);
      // Another client has a quota of its own; a task past its TTL counts no more.
      await a.create(task(clock.time), { client: `${client}-other`, max: 5 });
      await assert.rejects(b.create(task(clock.time), quota), TaskLimitError);
      clock.time += 1000;
      await b.create(task(clock.time), quota);
    }),
    c("concurrent answers through both handles are all recorded", async ({ a, b }, clock) => {
      const t = task(clock.time);
      await a.create(t);
      const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
      await a.update(t.taskId, { ask: Object.fromEntries(keys.map((k) => [k, ask])) });
      await Promise.all(keys.map((k, i) => (i % 2 ? a : b).update(t.taskId, { answer: { [k]: { n: i } } })));
      const after = await a.get(t.taskId);
      assert.equal(after?.status, "working");
      assert.deepEqual(Object.keys(after?.inputResponses ?? {}).sort(), [...keys].sort());
    }),
  ];
}
