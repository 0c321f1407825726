import { describe, it } from "vitest";
import { InMemoryTaskStore } from "../../src/server/tasks/memory-task-store.js";
import { runContract, taskLeaseContract, taskNodesContract, taskStoreContract } from "../../src/testing/index.js";

describe("task store contract: InMemoryTaskStore", () => {
  runContract(
    taskStoreContract(({ now }) => {
      const store = new InMemoryTaskStore({ now });
      return { a: store, b: store };
    }),
    it,
  );
});

describe("tasks across nodes: two servers sharing an InMemoryTaskStore", () => {
  runContract(
    taskNodesContract(({ now }) => {
      const store = new InMemoryTaskStore({ now, leases: true });
      return { a: store, b: store };
    }),
    it,
  );
});

describe("task leases: InMemoryTaskStore", () => {
  runContract(
    taskLeaseContract(({ now }) => {
      const store = new InMemoryTaskStore({ now, leases: true });
      return { a: store, b: store };
    }),
    it,
  );
});
