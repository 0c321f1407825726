import { describe, it } from "vitest";
import { InMemorySessionStore } from "../../src/server/session-store.js";
import { runContract, sessionStoreContract } from "../../src/testing/index.js";

describe("session store contract: InMemorySessionStore", () => {
  runContract(
    sessionStoreContract(({ onError }) => {
      const store = new InMemorySessionStore({ onError });
      return { a: store, b: store };
    }),
    it,
  );
});
