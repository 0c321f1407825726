export * from "./client/index.js";
export * from "./server/index.js";
