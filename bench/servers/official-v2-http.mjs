// The official TypeScript SDK v2.4 over Streamable HTTP on node:http, each mode wired the
// way the SDK documents it:
// - stateful: one McpServer + NodeStreamableHTTPServerTransport per session (JSON
//   responses), kept in a map by session id, behind the localhost Host/Origin guards;
// - stateless and modern: createMcpHandler (a fresh instance per request; 2025-era
//   requests go through its stateless legacy leg) adapted with toNodeHandler.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { MODE, ready } from "./lib/control.mjs";
import { benchTools, toolResult } from "./lib/tools.mjs";

const tools = await benchTools();
function benchServer() {
  const server = new McpServer({ name: "official-v2-bench", version: "1" });
  for (const tool of tools) {
    const config = { description: tool.description, inputSchema: z.object(tool.shape(z)) };
    server.registerTool(tool.name, config, (args) => toolResult(tool.run(args)));
  }
  return server;
}

const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();
let listener;
if (MODE === "stateful") {
  const transports = new Map();
  listener = async (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    const sessionId = req.headers["mcp-session-id"];
    if (sessionId !== undefined) {
      const transport = transports.get(sessionId);
      if (transport) return transport.handleRequest(req, res);
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }),
      );
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await benchServer().connect(transport);
    await transport.handleRequest(req, res);
  };
} else {
  const handler = toNodeHandler(createMcpHandler(() => benchServer()));
  listener = (req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    return handler(req, res);
  };
}
const server = createServer(listener);
server.listen(0, "127.0.0.1", () => ready(server));
