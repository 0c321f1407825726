import assert from "node:assert/strict";
import type { EventBus, ServerEvent } from "../../server/events.js";
import { type ContractCase, waitFor } from "./case.js";

/**
 * Two buses that share one channel: the same object for the in-memory bus, two
 * connections (two nodes) for a shared one such as Redis. `close` releases them.
 */
export interface BusPair {
  publisher: EventBus;
  subscriber: EventBus;
  close?(): Promise<void>;
}

/** How long a case waits for an event that must come. */
const DELIVERY_MS = 5000;

let topics = 0;
/** A resource URI no other case publishes, so cases can share a channel. */
const uri = (what: string) => `contract://${process.pid}/${++topics}/${what}`;

/** Collects what a subscription receives and lets a case wait for a given event. */
function record(bus: EventBus) {
  const seen: ServerEvent[] = [];
  const waiters = new Set<(event: ServerEvent) => void>();
  const stop = bus.subscribe((event) => {
    seen.push(event);
    for (const w of waiters) w(event);
  });
  const next = (accept: (event: ServerEvent) => boolean, what: string) =>
    seen.find(accept) ??
    waitFor<ServerEvent>(
      (deliver) => {
        waiters.add(deliver);
        return () => waiters.delete(deliver);
      },
      accept,
      DELIVERY_MS,
      what,
    );
  return { seen, stop, next: (e: ServerEvent) => next((x) => same(x, e), JSON.stringify(e)) };
}

const same = (a: ServerEvent, b: ServerEvent) => JSON.stringify(a) === JSON.stringify(b);

async function withPair(make: () => BusPair | Promise<BusPair>, run: (pair: BusPair) => Promise<void>) {
  const pair = await make();
  try {
    await run(pair);
  } finally {
    await pair.close?.();
  }
}

/**
 * What every EventBus must do for list changes and resource updates to reach every
 * session and subscription stream, on this node or (shared bus) on any node.
 */
export function eventBusContract(make: () => BusPair | Promise<BusPair>): ContractCase[] {
  return [
    {
      name: "delivers list changes and resource updates, unchanged, to every subscriber",
      run: () =>
        withPair(make, async ({ publisher, subscriber }) => {
          const a = record(subscriber);
          const b = record(subscriber);
          const updated: ServerEvent = { type: "resource_updated", uri: uri("a") };
          const changed: ServerEvent = { type: "list_changed", kind: "tools" };
          await publisher.publish(updated);
          await publisher.publish(changed);
          for (const r of [a, b]) {
            assert.deepEqual(await r.next(updated), updated);
            assert.deepEqual(await r.next(changed), changed);
          }
          a.stop();
          b.stop();
        }),
    },
    {
      name: "keeps the order in which one publisher published",
      run: () =>
        withPair(make, async ({ publisher, subscriber }) => {
          const r = record(subscriber);
          const events: ServerEvent[] = Array.from({ length: 20 }, (_, n) => ({
            type: "resource_updated",
            uri: uri(`order-${n}`),
          }));
          for (const e of events) await publisher.publish(e);
          await r.next(events[19] as ServerEvent);
          const mine = r.seen.filter((e) => events.some((x) => same(x, e)));
          assert.deepEqual(mine, events);
          r.stop();
        }),
    },
    {
      name: "stops delivering to a subscription once it is stopped",
      run: () =>
        withPair(make, async ({ publisher, subscriber }) => {
          const stopped = record(subscriber);
          const still = record(subscriber);
          const before: ServerEvent = { type: "resource_updated", uri: uri("before") };
          await publisher.publish(before);
          await stopped.next(before);
          stopped.stop();
          const after: ServerEvent = { type: "resource_updated", uri: uri("after") };
          await publisher.publish(after);
          // The other subscription got it, so it was delivered: the stopped one must not have.
          await still.next(after);
          assert.equal(
            stopped.seen.some((e) => same(e, after)),
            false,
          );
          still.stop();
        }),
    },
    {
      name: "a listener that throws does not keep the event from the others",
      run: () =>
        withPair(make, async ({ publisher, subscriber }) => {
          const stopThrower = subscriber.subscribe(() => {
            throw new Error("listener failure (expected by the contract)");
          });
          const r = record(subscriber);
          const event: ServerEvent = { type: "resource_updated", uri: uri("thrower") };
          await publisher.publish(event);
          assert.deepEqual(await r.next(event), event);
          stopThrower();
          r.stop();
        }),
    },
    {
      name: "a change two nodes publish under one key is delivered once; other keys, and unkeyed events, each time",
      run: () =>
        withPair(make, async ({ publisher, subscriber }) => {
          const r = record(subscriber);
          const changed: ServerEvent = { type: "resource_updated", uri: uri("shared-file") };
          const key = `${uri("state")}@1`;
          // Both nodes notice the change and publish it under the key they both derive from it.
          await publisher.publish(changed, { key });
          await subscriber.publish(changed, { key });
          await publisher.publish(changed, { key: `${uri("state")}@2` });
          // Each node's later, unkeyed event comes after its keyed ones: once both are heard, so were those.
          const doneA: ServerEvent = { type: "resource_updated", uri: uri("sentinel-a") };
          const doneB: ServerEvent = { type: "resource_updated", uri: uri("sentinel-b") };
          await publisher.publish(doneA);
          await subscriber.publish(doneB);
          await r.next(doneA);
          await r.next(doneB);
          assert.equal(r.seen.filter((e) => same(e, changed)).length, 2, "the change once per key");
          r.stop();
        }),
    },
    {
      name: "publishing with nobody subscribed succeeds",
      run: () =>
        withPair(make, async ({ publisher }) => {
          await publisher.publish({ type: "list_changed", kind: "prompts" });
        }),
    },
  ];
}
