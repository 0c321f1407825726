// The official TypeScript SDK v2.4 (@modelcontextprotocol/server) serving the echo tool over
// stdio through its v2 entry, serveStdio (one instance per connection from a factory).
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { DESCRIPTION, NAME } from "./lib/echo.mjs";

serveStdio(() => {
  const server = new McpServer({ name: "official-v2-bench", version: "1" });
  server.registerTool(NAME, { description: DESCRIPTION, inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
});
