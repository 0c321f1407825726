import assert from "node:assert/strict";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { EventStore } from "../../transports/streamable-http/server/event-store.js";
import type { ContractCase } from "./case.js";

const note = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "notifications/message", params: { n } });
const numbers = (replayed: { message: JsonRpcMessage | JsonRpcMessage[] }[]) =>
  replayed.map(({ message }) => (Array.isArray(message) || !("params" in message) ? undefined : message.params?.n));

async function replay(store: EventStore, after: string) {
  const seen: { id: string; message: JsonRpcMessage | JsonRpcMessage[] }[] = [];
  await store.replayAfter(after, (id, message) => seen.push({ id, message }));
  return seen;
}

/** A stream id no other case uses, so one store can serve every case. */
let streams = 0;
const streamId = () => `contract-${process.pid}-${Date.now().toString(36)}-${++streams}`;

/**
 * transports §Resumability and Redelivery: what every EventStore (in memory, Redis) must
 * do for a client to resume a stream with Last-Event-ID. `make` gives a store (a new one
 * or a shared one: cases use their own stream ids).
 */
export function eventStoreContract(make: () => EventStore | Promise<EventStore>): ContractCase[] {
  return [
    {
      name: "replays, in order, every message stored after an event, and nothing before it",
      async run() {
        const store = await make();
        const stream = streamId();
        const ids: string[] = [];
        for (let n = 0; n < 5; n++) ids.push(await store.append(stream, note(n)));
        assert.equal(new Set(ids).size, 5, "event ids are distinct");
        assert.deepEqual(numbers(await replay(store, ids[1] as string)), [2, 3, 4]);
        assert.deepEqual(numbers(await replay(store, ids[4] as string)), []);
        const replayed = await replay(store, ids[0] as string);
        assert.deepEqual(
          replayed.map((e) => e.id),
          ids.slice(1),
          "replayed events carry the ids they were stored with",
        );
      },
    },
    {
      name: "knows which stream an event id belongs to",
      async run() {
        const store = await make();
        const [a, b] = [streamId(), streamId()];
        const idA = await store.append(a, note(1));
        const idB = await store.append(b, note(2));
        assert.equal(await store.streamOf(idA), a);
        assert.equal(await store.streamOf(idB), b);
        assert.equal(await store.streamOf(`${idA}-not-an-id`), undefined);
        assert.equal(await store.streamOf("unknown"), undefined);
      },
    },
    {
      name: "keeps streams apart: a replay never carries another stream's events",
      async run() {
        const store = await make();
        const [a, b] = [streamId(), streamId()];
        const first = await store.append(a, note(0));
        await store.append(b, note(100));
        await store.append(a, note(1));
        await store.append(b, note(101));
        await store.append(a, note(2));
        assert.deepEqual(numbers(await replay(store, first)), [1, 2]);
      },
    },
    {
      name: "stores the priming event (no message) but never replays it",
      async run() {
        const store = await make();
        const stream = streamId();
        const priming = await store.append(stream, undefined);
        assert.equal(await store.streamOf(priming), stream);
        await store.append(stream, note(1));
        const again = await store.append(stream, undefined);
        await store.append(stream, note(2));
        assert.deepEqual(numbers(await replay(store, priming)), [1, 2]);
        assert.deepEqual(numbers(await replay(store, again)), [2]);
      },
    },
    {
      name: "keeps a batch (an array of messages) as one event",
      async run() {
        const store = await make();
        const stream = streamId();
        const start = await store.append(stream, undefined);
        await store.append(stream, [note(1), note(2)]);
        const replayed = await replay(store, start);
        assert.equal(replayed.length, 1);
        assert.deepEqual(replayed[0]?.message, [note(1), note(2)]);
      },
    },
    {
      name: "keeps the order of appends made without waiting for each other",
      async run() {
        const store = await make();
        const stream = streamId();
        const start = await store.append(stream, undefined);
        await Promise.all(Array.from({ length: 20 }, (_, n) => store.append(stream, note(n))));
        assert.deepEqual(
          numbers(await replay(store, start)),
          Array.from({ length: 20 }, (_, n) => n),
        );
      },
    },
    {
      name: "gives ids that can go in an SSE id field (no line breaks, not empty)",
      async run() {
        const store = await make();
        const id = await store.append(streamId(), note(1));
        assert.ok(id.length > 0 && !/[\r\n\0]/.test(id), `unusable event id ${JSON.stringify(id)}`);
      },
    },
    {
      name: "stores once what several nodes append with one dedupe key, and gives each the same id",
      async run() {
        const store = await make();
        const stream = streamId();
        const prime = await store.append(stream, undefined);
        const first = await store.append(stream, note(1), "event-1");
        const again = await store.append(stream, note(1), "event-1");
        const other = await store.append(stream, note(2), "event-2");
        const plain = await store.append(stream, note(2));
        assert.equal(again, first);
        assert.notEqual(other, first);
        assert.notEqual(plain, other, "appends without a key are never merged");
        assert.deepEqual(numbers(await replay(store, prime)), [1, 2, 2]);
      },
    },
    {
      name: "forgets a dropped stream: its ids are unknown and replay nothing",
      async run() {
        const store = await make();
        const stream = streamId();
        const first = await store.append(stream, note(1));
        await store.append(stream, note(2));
        await store.dropStream(stream);
        assert.equal(await store.streamOf(first), undefined);
        assert.deepEqual(await replay(store, first), []);
      },
    },
    {
      name: "replays nothing for an event id it never gave",
      async run() {
        const store = await make();
        await store.append(streamId(), note(1));
        assert.deepEqual(await replay(store, "nonsense"), []);
        assert.deepEqual(await replay(store, ""), []);
      },
    },
  ];
}
