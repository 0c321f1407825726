// @ts-check
// The portable server over Streamable HTTP on Node: PORT=3000 node node-server.mjs
import process from "node:process";
import { createStreamableHttpHandler, listen, routeByPath } from "mcpkit/http";
import { createPortableServer } from "./server.mjs";

const mcp = createStreamableHttpHandler(createPortableServer());
const routes = routeByPath((path) => (path === "/mcp" ? mcp : undefined));
const http = await listen({ ...routes, close: () => mcp.close() }, { port: Number(process.env.PORT ?? 3000) });
console.log(`serving MCP on ${new URL("/mcp", http.url)}`);
process.once("SIGTERM", () => void http.close());
