// @ts-check
// The portable server over Streamable HTTP on Bun: PORT=3000 bun bun-server.mjs
import { createStreamableHttpHandler, routeByPath } from "mcpkit/http";
import { createPortableServer } from "./server.mjs";

const mcp = createStreamableHttpHandler(createPortableServer());
const routes = routeByPath((path) => (path === "/mcp" ? mcp : undefined));
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
  idleTimeout: 60, // seconds; Bun's default (10) would cut SSE streams between keep-alives (25)
  fetch: routes.fetch,
});
console.log(`serving MCP on ${new URL("/mcp", server.url)}`);
