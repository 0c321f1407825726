// @ts-check
// An MCP endpoint in an Express app: PORT=3000 node examples/frameworks/express.mjs
import process from "node:process";
import { fileURLToPath } from "node:url";
import express from "express";
import { createStreamableHttpHandler, toNodeListener } from "mcpkit/http";
import { createPortableServer } from "../runtimes/server.mjs";

/**
 * @param {import("mcpkit/http").StreamableHttpHandler} mcp
 * @param {{ auth?: import("mcpkit/auth").ResourceServer, json?: boolean }} [options]
 */
export function expressApp(mcp, { auth, json = true } = {}) {
  const app = express();
  if (json) app.use(express.json({ limit: "4mb" })); // optional: mcpkit reads req.body then
  app.all("/mcp", toNodeListener(mcp));
  if (auth) app.get(auth.metadataPath, toNodeListener(mcp)); // Protected Resource Metadata
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = expressApp(createStreamableHttpHandler(createPortableServer()));
  const http = app.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
    const { port } = /** @type {import("node:net").AddressInfo} */ (http.address());
    console.log(`serving MCP on http://127.0.0.1:${port}/mcp`);
  });
}
