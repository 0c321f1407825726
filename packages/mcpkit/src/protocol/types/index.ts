export * from "./capabilities.js";
export * from "./common.js";
export * from "./content.js";
export * from "./features.js";
export * from "./lifecycle.js";
export * from "./modern.js";
export * from "./server-results.js";
