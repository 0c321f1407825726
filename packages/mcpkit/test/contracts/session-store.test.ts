import { describe, it } from "vitest";
import { InMemorySessionStore } from "../../src/server/session-store.js";
import { runContract, sessionStoreContract } from "../../src/testing/index.js";

describe("session store contract: InMemorySessionStore", () => {
  runContract(
    sessionStoreContract(() => {
      const store = new InMemorySessionStore();
      return { a: store, b: store };
    }),
    it,
  );
});
