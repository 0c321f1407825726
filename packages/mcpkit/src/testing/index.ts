export { createLinkedPair } from "../transports/memory/linked-pair.js";
export { connectInMemory } from "./connect-in-memory.js";
export * from "./contracts/index.js";
export * from "./lint/index.js";
