// mcp-lite over Streamable HTTP (it has no stdio transport and serves up to 2025-06-18):
// InMemorySessionAdapter for BENCH_MODE=stateful, no adapter (stateless) otherwise; on
// node:http through @hono/node-server's getRequestListener.
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { InMemorySessionAdapter, McpServer, StreamableHttpTransport } from "mcp-lite";
import { z } from "zod";
import { MODE, ready } from "./lib/control.mjs";
import { benchTools, toolResult } from "./lib/tools.mjs";

const mcp = new McpServer({
  name: "mcp-lite-bench",
  version: "1",
  schemaAdapter: (schema) => z.toJSONSchema(schema),
});
for (const tool of await benchTools()) {
  mcp.tool(tool.name, {
    description: tool.description,
    inputSchema: z.object(tool.shape(z)),
    handler: (args) => toolResult(tool.run(args)),
  });
}
const transport =
  MODE === "stateful"
    ? new StreamableHttpTransport({ sessionAdapter: new InMemorySessionAdapter({ maxEventBufferSize: 1024 }) })
    : new StreamableHttpTransport();
const handle = transport.bind(mcp);
const http = createServer(getRequestListener((request) => handle(request)));
http.listen(0, "127.0.0.1", () => ready(http));
