import type { McpServer } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";
import { failWhen } from "./ended.js";

/** Serves `server` on stdin/stdout until the client closes it, a signal, or `ended`. */
export async function serveStdio(server: McpServer, name: string, ended?: Promise<string>): Promise<void> {
  if (process.stdin.isTTY) {
    process.stderr.write(
      `mcpkit serve ${name}: this is an MCP server speaking JSON-RPC on stdin/stdout.\n` +
        `Start it from an MCP client instead, for example:\n` +
        `  {"mcpServers": {"${name}": {"command": "npx", "args": ["-y", "@mcpkit/cli", "serve", "${name}", "--stdio"]}}}\n` +
        `Waiting for JSON-RPC messages on stdin (Ctrl+D to quit).\n`,
    );
  }
  const session = await server.connect(stdioServerTransport());
  const stop = () => void session.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await Promise.race([session.closed, failWhen(ended)]);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    await session.close();
  }
}
