import { Command, Option } from "commander";
import { createSseHandler, createStreamableHttpHandler, type FetchHandler, LOCALHOST_NAMES, listen } from "mcpkit/http";
import type { McpServer } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";
import { createEverythingServer } from "../servers/everything/index.js";

const SERVERS: Record<string, () => McpServer> = {
  everything: () => createEverythingServer(),
};

interface ServeOptions {
  stdio?: boolean;
  port?: string;
  host: string;
}

export function serveCommand(): Command {
  return new Command("serve")
    .description("Run a built-in MCP server over stdio (the default) or Streamable HTTP")
    .argument("[server]", `which server: ${Object.keys(SERVERS).join(", ")}`, "everything")
    .addOption(new Option("--stdio", "speak MCP on stdin/stdout (the default without --port)"))
    .addOption(new Option("--port <port>", "serve Streamable HTTP on http://HOST:PORT/mcp").conflicts("stdio"))
    .addOption(new Option("--host <host>", "the address to bind with --port").default("127.0.0.1"))
    .action(async (name: string, options: ServeOptions) => {
      const make = SERVERS[name];
      if (!make) throw new Error(`Unknown server "${name}"; choose one of ${Object.keys(SERVERS).join(", ")}`);
      if (options.port !== undefined) await serveHttp(make(), Number(options.port), options.host);
      else await serveStdio(make(), name);
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

async function serveHttp(server: McpServer, port: number, host: string): Promise<void> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${port}`);
  // DNS-rebinding protection: a local bind answers only to local names; another bind to its own name.
  const local = LOCALHOST_NAMES.includes(host) || host === "::1";
  const allowedHosts = local ? LOCALHOST_NAMES : [host.includes(":") ? `[${host}]` : host, ...LOCALHOST_NAMES];
  const streamable = createStreamableHttpHandler(server, { allowedHosts });
  const legacy = createSseHandler(server, { allowedHosts, messagesPath: "/messages" });
  const router: FetchHandler & { close(): Promise<void> } = {
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/mcp") return streamable.fetch(request);
      if (path === "/sse" || path === "/messages") return legacy.fetch(request);
      return Promise.resolve(
        new Response("Not found: the MCP endpoint is /mcp (and /sse for HTTP+SSE clients)\n", { status: 404 }),
      );
    },
    async close() {
      await Promise.all([streamable.close(), legacy.close()]);
    },
  };
  const listening = await listen(router, { port, host });
  const base = listening.url.href.replace(/\/$/, "");
  process.stderr.write(`mcpkit: serving MCP on ${base}/mcp (Streamable HTTP) and ${base}/sse (HTTP+SSE)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await listening.close();
}
