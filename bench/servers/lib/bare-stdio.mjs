// The bare no-framework MCP stdio server: it answers initialize, tools/list and tools/call
// for one echo tool, and nothing else. `coalesce: false` writes each answer with its own
// write (the baseline); `coalesce: true` writes the answers of one event-loop turn together,
// as mcpkit's stdio transport does: fewer syscalls, the limit of what a pipe gives.
import { createInterface } from "node:readline";
import { DESCRIPTION, INPUT_JSON_SCHEMA, NAME } from "./echo.mjs";

const tool = { name: NAME, description: DESCRIPTION, inputSchema: INPUT_JSON_SCHEMA };

function lineWriter(coalesce) {
  if (!coalesce) return (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
  let pending = "";
  const flush = () => {
    const chunk = pending;
    pending = "";
    process.stdout.write(chunk);
  };
  return (msg) => {
    if (pending === "") setImmediate(flush);
    pending += `${JSON.stringify(msg)}\n`;
  };
}

export function serveBareStdio({ coalesce }) {
  const write = lineWriter(coalesce);
  createInterface({ input: process.stdin }).on("line", (line) => {
    const msg = JSON.parse(line);
    if (msg.id === undefined) return;
    switch (msg.method) {
      case "initialize":
        return write({
          jsonrpc: "2.0",
          id: msg.id,
          result: {
            protocolVersion: msg.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "bare", version: "1" },
          },
        });
      case "tools/list":
        return write({ jsonrpc: "2.0", id: msg.id, result: { tools: [tool] } });
      case "tools/call":
        return write({
          jsonrpc: "2.0",
          id: msg.id,
          result: { content: [{ type: "text", text: msg.params.arguments.text }] },
        });
      default:
        return write({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
    }
  });
}
