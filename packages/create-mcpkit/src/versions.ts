import { createRequire } from "node:module";
import type { Dependency } from "./templates.js";

/** create-mcpkit is released with mcpkit and @mcpkit/cli, at the same version. */
export const VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string }).version;

/**
 * The version ranges a new project asks for: the versions mcpkit's own tests run with
 * (the repository's test checks that they match its devDependencies).
 */
export const VERSIONS: Record<Dependency, string> = {
  mcpkit: `^${VERSION}`,
  "@mcpkit/cli": `^${VERSION}`,
  zod: "^4.6.7",
  typescript: "^7.0.2",
  "@types/node": "^20.19.43",
  hono: "^4.13.19",
  "@hono/node-server": "^2.1.8",
  express: "^5.3.0",
  "@types/express": "^5.0.6",
  fastify: "^5.12.8",
};
