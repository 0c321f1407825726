// tmcp over Streamable HTTP (@tmcp/transport-http: sessions for initialize-based clients,
// per-request serving for 2026-07-28), on node:http through @hono/node-server's
// getRequestListener (the Node adapter the official SDK uses too).
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import { z } from "zod";
import { ready } from "./lib/control.mjs";
import { benchTools, toolResult } from "./lib/tools.mjs";

const server = new McpServer(
  { name: "tmcp-bench", version: "1", description: "benchmark" },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
for (const tool of await benchTools()) {
  const config = { name: tool.name, description: tool.description, schema: z.object(tool.shape(z)) };
  server.tool(config, (args) => toolResult(tool.run(args)));
}
const transport = new HttpTransport(server, { path: "/mcp", allowedOrigins: [] });
const http = createServer(
  getRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 })),
);
http.listen(0, "127.0.0.1", () => ready(http));
