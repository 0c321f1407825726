import { describe, expect, it } from "vitest";
import { InMemoryEventBus } from "../../src/server/events.js";
import { eventBusContract, runContract } from "../../src/testing/index.js";

describe("event bus contract: InMemoryEventBus", () => {
  runContract(
    eventBusContract(() => {
      const bus = new InMemoryEventBus({ onError: () => {} });
      return { publisher: bus, subscriber: bus };
    }),
    it,
  );
});

describe("InMemoryEventBus", () => {
  it("reports a listener's failure to onError and still delivers to the others", () => {
    const errors: unknown[] = [];
    const bus = new InMemoryEventBus({ onError: (error) => errors.push(error) });
    const failure = new Error("listener failed");
    const seen: unknown[] = [];
    bus.subscribe(() => {
      throw failure;
    });
    bus.subscribe((event) => seen.push(event));
    bus.publish({ type: "list_changed", kind: "tools" });
    expect(errors).toEqual([failure]);
    expect(seen).toEqual([{ type: "list_changed", kind: "tools" }]);
  });
});
