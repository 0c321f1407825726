// @ts-check
// An MCP endpoint in a Fastify app: PORT=3000 node examples/frameworks/fastify.mjs
import process from "node:process";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { createStreamableHttpHandler, fastifyHandler } from "mcpkit/http";
import { createPortableServer } from "../runtimes/server.mjs";

/**
 * @param {import("mcpkit/http").StreamableHttpHandler} mcp
 * @param {{ auth?: import("mcpkit/auth").ResourceServer }} [options]
 */
export function fastifyApp(mcp, { auth } = {}) {
  const app = Fastify({ bodyLimit: 4 * 1024 * 1024 }); // mcpkit's limit (Fastify's default: 1 MiB)
  app.all("/mcp", fastifyHandler(mcp));
  if (auth) app.get(auth.metadataPath, fastifyHandler(mcp)); // Protected Resource Metadata
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = fastifyApp(createStreamableHttpHandler(createPortableServer()));
  const address = await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
  console.log(`serving MCP on ${address}/mcp`);
}
