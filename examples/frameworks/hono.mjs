// @ts-check
// An MCP endpoint in a Hono app (here on Node; Bun, Deno and Workers serve app.fetch as is):
//   PORT=3000 node examples/frameworks/hono.mjs
import process from "node:process";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createStreamableHttpHandler } from "mcpkit/http";
import { createPortableServer } from "../runtimes/server.mjs";

/**
 * @param {import("mcpkit/http").StreamableHttpHandler} mcp
 * @param {{ auth?: import("mcpkit/auth").ResourceServer }} [options]
 */
export function honoApp(mcp, { auth } = {}) {
  const app = new Hono();
  app.all("/mcp", (c) => mcp.fetch(c.req.raw));
  if (auth) app.get(auth.metadataPath, (c) => mcp.fetch(c.req.raw)); // Protected Resource Metadata
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = honoApp(createStreamableHttpHandler(createPortableServer()));
  serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000) }, ({ port }) =>
    console.log(`serving MCP on http://127.0.0.1:${port}/mcp`),
  );
}
