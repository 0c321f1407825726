import { describe, it } from "vitest";
import { InMemoryTaskStore } from "../../src/server/tasks/memory-store.js";
import { runContract, taskStoreContract } from "../../src/testing/index.js";

describe("task store contract: InMemoryTaskStore", () => {
  runContract(
    taskStoreContract(({ now }) => {
      const store = new InMemoryTaskStore({ now });
      return { a: store, b: store };
    }),
    it,
  );
});
