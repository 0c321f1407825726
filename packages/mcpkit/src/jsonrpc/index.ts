export * from "./errors.js";
export * from "./message.js";
export type * from "./types.js";
