// The official TypeScript SDK v1.32 (@modelcontextprotocol/sdk) serving the echo tool over stdio.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { DESCRIPTION, NAME } from "./lib/echo.mjs";

const server = new McpServer({ name: "official-v1-bench", version: "1" });
server.registerTool(NAME, { description: DESCRIPTION, inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
await server.connect(new StdioServerTransport());
