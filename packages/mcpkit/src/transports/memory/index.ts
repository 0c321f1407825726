export { createLinkedPair } from "./linked-pair.js";
