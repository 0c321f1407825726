// A bare no-framework MCP stdio server: the baseline every implementation is measured against.
// It answers initialize, tools/list and tools/call for one echo tool, and nothing else.
import { createInterface } from "node:readline";

const tool = {
  name: "echo",
  description: "Echoes the text back",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};
const write = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
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
