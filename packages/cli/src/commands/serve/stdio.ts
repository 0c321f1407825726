import type { McpServer } from "mcpkit/server";
import { servingStdio } from "../../module/library.js";
import { mcpkitCommand } from "../../self.js";
import { failWhen } from "./ended.js";
import { firstSignal } from "./shutdown.js";

/** A client configuration entry that starts this installation's mcpkit (npx @mcpkit/cli once it is published). */
function clientEntry(name: string): string {
  const [command, ...args] = mcpkitCommand();
  return JSON.stringify({ mcpServers: { [name]: { command, args: [...args, "serve", name, "--stdio"] } } });
}

/**
 * Serves `server` on stdin/stdout until the client closes it, `stop` (default: the first
 * SIGINT or SIGTERM), or `ended`; then closes the server (its running tasks fail, running
 * requests are answered with an error).
 */
export async function serveStdio(
  server: McpServer,
  name: string,
  stop: Promise<unknown> = firstSignal(),
  ended?: Promise<string>,
): Promise<void> {
  if (process.stdin.isTTY) {
    process.stderr.write(
      `mcpkit serve ${name}: this is an MCP server speaking JSON-RPC on stdin/stdout.\n` +
        `Start it from an MCP client instead (mcpkit install adds it to one), for example:\n` +
        `  ${clientEntry(name)}\n` +
        `Waiting for JSON-RPC messages on stdin (Ctrl+D to quit).\n`,
    );
  }
  // The transport of the copy of mcpkit that made the server (a module's own: module/library.ts).
  const { stdioServerTransport } = await servingStdio(server);
  const session = await server.connect(stdioServerTransport());
  try {
    await Promise.race([session.closed, stop, failWhen(ended)]);
  } finally {
    await server.close();
  }
}
