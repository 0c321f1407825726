import { describe, expect, it } from "vitest";
import { eventStoreContract, runContract } from "../../src/testing/index.js";
import { InMemoryEventStore } from "../../src/transports/streamable-http/server/event-store.js";

describe("event store contract: InMemoryEventStore", () => {
  runContract(
    eventStoreContract(() => new InMemoryEventStore()),
    it,
  );
});

describe("InMemoryEventStore limits", () => {
  it("keeps the newest events of a stream: older ones can no longer be replayed from", async () => {
    const store = new InMemoryEventStore({ maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++)
      ids.push(await store.append("s", { jsonrpc: "2.0", method: "notifications/message", params: { n } }));
    const replayed: number[] = [];
    await store.replayAfter(ids[2] as string, (_id, m) =>
      replayed.push((m as unknown as { params: { n: number } }).params.n),
    );
    expect(replayed).toEqual([3, 4]);
  });

  it("keeps the most recently written streams", async () => {
    const store = new InMemoryEventStore({ maxStreams: 2 });
    const first = await store.append("a", undefined);
    await store.append("b", undefined);
    await store.append("c", undefined);
    expect(await store.streamOf(first)).toBeUndefined();
    expect(store.size).toBe(2);
  });
});
