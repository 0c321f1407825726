// A bare no-framework MCP Streamable HTTP server: the HTTP baseline. node:http, buffer the
// body, JSON.parse, a switch, JSON.stringify. With BENCH_MODE=stateful it keeps a session
// per initialize (Mcp-Session-Id, 404 for unknown ids); otherwise every POST stands alone.
// 2026-07-28 requests (no session; MCP-Protocol-Version, Mcp-Method and Mcp-Name headers
// matching the body's _meta, method and name) are served in every mode.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { MODE, ready } from "./lib/control.mjs";
import { benchTools } from "./lib/tools.mjs";

const MODERN = "2026-07-28";
const VERSION_META = "io.modelcontextprotocol/protocolVersion";
const stateful = MODE === "stateful";
const sessions = new Map();
const tools = await benchTools();
const byName = new Map(tools.map((t) => [t.name, t]));
const listed = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));

function send(res, status, message, sessionId) {
  const text = JSON.stringify(message);
  const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(text) };
  if (sessionId) headers["mcp-session-id"] = sessionId;
  res.writeHead(status, headers);
  res.end(text);
}

const error = (id, code, message) => ({ jsonrpc: "2.0", id, error: { code, message } });

/** The answer to a message, or a promise of it when a tool does I/O. */
function answer(msg, modern) {
  const params = msg.params ?? {};
  switch (msg.method) {
    case "initialize":
      return {
        jsonrpc: "2.0",
        id: msg.id,
        result: {
          protocolVersion: params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "bare", version: "1" },
        },
      };
    case "tools/list":
      return { jsonrpc: "2.0", id: msg.id, result: { tools: listed } };
    case "tools/call": {
      const tool = byName.get(params.name);
      if (tool === undefined || !tool.valid(params.arguments)) return error(msg.id, -32602, "Invalid params");
      const done = (text) => {
        const result = { content: [{ type: "text", text }] };
        if (modern) result.resultType = "complete";
        return { jsonrpc: "2.0", id: msg.id, result };
      };
      const text = tool.run(params.arguments);
      return typeof text === "string" ? done(text) : text.then(done);
    }
    default:
      return error(msg.id, -32601, "Method not found");
  }
}

function handle(req, res, body) {
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    return send(res, 400, error(null, -32700, "Parse error"));
  }
  if (req.headers["mcp-protocol-version"] === MODERN && req.headers["mcp-session-id"] === undefined) {
    if (
      msg.params?._meta?.[VERSION_META] !== MODERN ||
      req.headers["mcp-method"] !== msg.method ||
      (msg.method === "tools/call" && req.headers["mcp-name"] !== msg.params.name)
    ) {
      return send(res, 400, error(msg.id ?? null, -32020, "Header mismatch"));
    }
    if (msg.id === undefined) return res.writeHead(202).end();
    return reply(res, answer(msg, true));
  }
  if (stateful) {
    if (msg.method === "initialize") {
      const id = randomUUID();
      const { protocolVersion, capabilities, clientInfo } = msg.params;
      sessions.set(id, { protocolVersion, capabilities, clientInfo, initialized: false });
      return send(res, 200, answer(msg, false), id);
    }
    const session = sessions.get(req.headers["mcp-session-id"]);
    if (session === undefined) return send(res, 404, error(msg.id ?? null, -32001, "Session not found"));
    if (msg.method === "notifications/initialized") session.initialized = true;
  }
  if (msg.id === undefined) return res.writeHead(202).end();
  reply(res, answer(msg, false));
}

function reply(res, message) {
  if (typeof message.then !== "function") return send(res, 200, message);
  message.then(
    (m) => send(res, 200, m),
    (e) => send(res, 500, error(null, -32603, String(e))),
  );
}

const server = createServer((req, res) => {
  if (req.method !== "POST") return res.writeHead(405).end();
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => handle(req, res, chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString()));
});
server.listen(0, "127.0.0.1", () => ready(server));
