import { Command, Option } from "commander";
import type { McpServer } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";
import { createEverythingServer } from "../servers/everything/index.js";

const SERVERS: Record<string, () => McpServer> = {
  everything: () => createEverythingServer(),
};

export function serveCommand(): Command {
  return new Command("serve")
    .description("Run a built-in MCP server")
    .argument("[server]", `which server: ${Object.keys(SERVERS).join(", ")}`, "everything")
    .addOption(new Option("--stdio", "speak MCP on stdin/stdout (the default)"))
    .action(async (name: string) => {
      const make = SERVERS[name];
      if (!make) throw new Error(`Unknown server "${name}"; choose one of ${Object.keys(SERVERS).join(", ")}`);
      await serveStdio(make(), name);
    });
}

async function serveStdio(server: McpServer, name: string): Promise<void> {
  if (process.stdin.isTTY) {
    process.stderr.write(
      `mcpkit serve ${name}: this is an MCP server speaking JSON-RPC on stdin/stdout.\n` +
        `Start it from an MCP client instead, for example:\n` +
        `  {"mcpServers": {"${name}": {"command": "npx", "args": ["mcpkit", "serve", "${name}", "--stdio"]}}}\n` +
        `Waiting for JSON-RPC messages on stdin (Ctrl+D to quit).\n`,
    );
  }
  const session = await server.connect(stdioServerTransport());
  const stop = () => void session.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await session.closed;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
}
