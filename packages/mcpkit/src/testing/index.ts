export { createLinkedPair } from "../transports/memory/linked-pair.js";
export { connectInMemory } from "./connect.js";
export * from "./contracts/index.js";
