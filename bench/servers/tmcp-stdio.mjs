// tmcp serving the echo tool over stdio (@tmcp/transport-stdio, zod through @tmcp/adapter-zod).
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { StdioTransport } from "@tmcp/transport-stdio";
import { McpServer } from "tmcp";
import { z } from "zod";
import { DESCRIPTION, NAME } from "./lib/echo.mjs";

const server = new McpServer(
  { name: "tmcp-bench", version: "1", description: "benchmark" },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
server.tool({ name: NAME, description: DESCRIPTION, schema: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
new StdioTransport(server).listen();
