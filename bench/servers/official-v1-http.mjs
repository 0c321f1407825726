// The official TypeScript SDK v1.32 over Streamable HTTP on node:http (2025-era wires only:
// v1 does not serve 2026-07-28), wired as its README shows:
// - stateful: one McpServer + StreamableHTTPServerTransport per session (JSON responses),
//   kept in a map by session id;
// - stateless: a fresh McpServer + transport (sessionIdGenerator: undefined) per request.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { MODE, ready } from "./lib/control.mjs";
import { benchTools, toolResult } from "./lib/tools.mjs";

const tools = await benchTools();
function benchServer() {
  const server = new McpServer({ name: "official-v1-bench", version: "1" });
  for (const tool of tools) {
    const config = { description: tool.description, inputSchema: tool.shape(z) };
    server.registerTool(tool.name, config, (args) => toolResult(tool.run(args)));
  }
  return server;
}

let listener;
if (MODE === "stateful") {
  const transports = new Map();
  listener = async (req, res) => {
    const sessionId = req.headers["mcp-session-id"];
    if (sessionId !== undefined) {
      const transport = transports.get(sessionId);
      if (transport) return transport.handleRequest(req, res);
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }),
      );
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await benchServer().connect(transport);
    await transport.handleRequest(req, res);
  };
} else {
  listener = async (req, res) => {
    const server = benchServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}
const server = createServer(listener);
server.listen(0, "127.0.0.1", () => ready(server));
