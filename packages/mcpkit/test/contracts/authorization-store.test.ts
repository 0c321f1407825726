import { describe, it } from "vitest";
import { memoryAuthorizationStore } from "../../src/auth/index.js";
import { authorizationStoreContract, runContract } from "../../src/testing/index.js";

describe("authorization store contract: memoryAuthorizationStore", () => {
  runContract(
    authorizationStoreContract(() => {
      const store = memoryAuthorizationStore();
      return { a: store, b: store };
    }),
    it,
  );
});
