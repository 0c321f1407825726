import { createRequire } from "node:module";

/** This package's version: the servers report it as theirs. */
export const VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string }).version;
