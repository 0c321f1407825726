// @ts-check
// The portable server over Streamable HTTP on Deno:
//   PORT=3000 deno run --allow-net=127.0.0.1 --allow-env=PORT --allow-read deno-server.mjs
import { createStreamableHttpHandler, routeByPath } from "mcpkit/http";
import { createPortableServer } from "./server.mjs";

const mcp = createStreamableHttpHandler(createPortableServer());
const routes = routeByPath((path) => (path === "/mcp" ? mcp : undefined));
Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen: ({ hostname, port }) => console.log(`serving MCP on http://${hostname}:${port}/mcp`),
  },
  routes.fetch,
);
