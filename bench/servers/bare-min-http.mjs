// The HTTP limit: bare node:http that reads the body, JSON.parse, a switch on the method,
// JSON.stringify, end — and nothing else. No argument, header, Origin or Host check, no
// error handling beyond a malformed body. With BENCH_MODE=stateful, initialize opens a
// session (Mcp-Session-Id, a Map entry) and a later POST must name a known one (404
// otherwise): a session wire needs that much. 2026-07-28 requests (MCP-Protocol-Version
// 2026-07-28, no session) are served in every mode, their headers unread.
// bare-http.mjs is the baseline that validates, as the frameworks do.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { MODE, ready } from "./lib/control.mjs";
import { DESCRIPTION, INPUT_JSON_SCHEMA, NAME } from "./lib/echo.mjs";

const stateful = MODE === "stateful";
const sessions = new Map();
const listed = [{ name: NAME, description: DESCRIPTION, inputSchema: INPUT_JSON_SCHEMA }];

function send(res, message, sessionId) {
  const text = JSON.stringify(message);
  const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(text) };
  if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
  res.writeHead(200, headers);
  res.end(text);
}

function handle(req, res, body) {
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    return res.writeHead(400).end();
  }
  const modern = req.headers["mcp-protocol-version"] === "2026-07-28";
  let sessionId;
  if (stateful && !modern) {
    if (msg.method === "initialize") {
      sessionId = randomUUID();
      sessions.set(sessionId, { protocolVersion: msg.params.protocolVersion });
    } else if (!sessions.has(req.headers["mcp-session-id"])) {
      return res.writeHead(404).end();
    }
  }
  if (msg.id === undefined) return res.writeHead(202).end();
  switch (msg.method) {
    case "initialize":
      return send(
        res,
        {
          jsonrpc: "2.0",
          id: msg.id,
          result: {
            protocolVersion: msg.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "bare-min", version: "1" },
          },
        },
        sessionId,
      );
    case "tools/list":
      return send(res, { jsonrpc: "2.0", id: msg.id, result: { tools: listed } });
    case "tools/call": {
      const result = { content: [{ type: "text", text: msg.params.arguments.text }] };
      if (modern) result.resultType = "complete";
      return send(res, { jsonrpc: "2.0", id: msg.id, result });
    }
    default:
      return send(res, { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
  }
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => handle(req, res, chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString()));
});
server.listen(0, "127.0.0.1", () => ready(server));
