import type { McpServer } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";
import { mcpkitCommand } from "../../self.js";
import { failWhen } from "./ended.js";

/** A client configuration entry that starts this installation's mcpkit (npx @mcpkit/cli once it is published). */
function clientEntry(name: string): string {
  const [command, ...args] = mcpkitCommand();
  return JSON.stringify({ mcpServers: { [name]: { command, args: [...args, "serve", name, "--stdio"] } } });
}

/** Serves `server` on stdin/stdout until the client closes it, a signal, or `ended`. */
export async function serveStdio(server: McpServer, name: string, ended?: Promise<string>): Promise<void> {
  if (process.stdin.isTTY) {
    process.stderr.write(
      `mcpkit serve ${name}: this is an MCP server speaking JSON-RPC on stdin/stdout.\n` +
        `Start it from an MCP client instead (mcpkit install adds it to one), for example:\n` +
        `  ${clientEntry(name)}\n` +
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
