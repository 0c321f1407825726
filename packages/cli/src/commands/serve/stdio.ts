import type { McpServer } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";
import { failWhen } from "./ended.js";

/**
 * Serves `server` on stdin/stdout until the client closes it, `stop` (a signal), or
 * `ended`; then closes the server (its running tasks fail, running requests are answered
 * with an error).
 */
export async function serveStdio(
  server: McpServer,
  name: string,
  stop: Promise<unknown>,
  ended?: Promise<string>,
): Promise<void> {
  if (process.stdin.isTTY) {
    process.stderr.write(
      `mcpkit serve ${name}: this is an MCP server speaking JSON-RPC on stdin/stdout.\n` +
        `Start it from an MCP client instead, for example:\n` +
        `  {"mcpServers": {"${name}": {"command": "npx", "args": ["-y", "@mcpkit/cli", "serve", "${name}", "--stdio"]}}}\n` +
        `Waiting for JSON-RPC messages on stdin (Ctrl+D to quit).\n`,
    );
  }
  const session = await server.connect(stdioServerTransport());
  try {
    await Promise.race([session.closed, stop, failWhen(ended)]);
  } finally {
    await server.close();
  }
}
