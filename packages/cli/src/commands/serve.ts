import { Command, Option } from "commander";
import {
  createSseHandler,
  createStreamableHttpHandler,
  LOCALHOST_NAMES,
  listen,
  routeByPath,
  type SseHandler,
  type StreamableHttpHandler,
} from "mcpkit/http";
import type { McpServer, ServerOptions } from "mcpkit/server";
import { stdioServerTransport } from "mcpkit/stdio";
import { createEverythingServer } from "../servers/everything/index.js";
import { gitHubFlags } from "../servers/github/flags.js";
import { createProxyServer, parseHeaders, proxyTarget } from "../servers/proxy/index.js";
import { weatherFlags } from "../servers/weather/flags.js";
import { createWorkspaceServer } from "../servers/workspace/index.js";
import { durationMs } from "./duration.js";
import { type AuthFlags, authOptions, checkAuthFlags, resourceServer } from "./serve-auth.js";
import { USAGE_EXIT, UsageError } from "./usage-error.js";

interface ServeOptions extends AuthFlags {
  stdio?: boolean;
  port?: string;
  host: string;
  root?: string[];
  db?: string;
  allowWrite?: boolean;
  maxReadBytes?: string;
  queryTimeout?: string;
  maxAnswerBytes?: string;
  maxSessions?: string;
  idleTimeout?: string;
  header?: string[];
  redis?: string;
  stateKey?: string;
}

/** Limits of the HTTP endpoint (--port only). */
interface HttpLimits {
  maxSessions?: number;
  idleTimeoutMs?: number;
}

/** What every node of a cluster must share: given to the server a node makes. */
type Shared = Pick<ServerOptions, "eventBus" | "requestStateKey" | "tasks">;

/** A built-in server, made ready to serve, and how to release what it holds. */
interface Served {
  server: McpServer;
  summary?: string;
  /** Resolves with why, when the server cannot go on (a proxied server exited). */
  ended?: Promise<string>;
  close(): Promise<void>;
}

const SERVERS: Record<string, (options: ServeOptions, operands: string[], shared: Shared) => Promise<Served>> = {
  everything: async (_options, _operands, shared) => ({
    server: createEverythingServer(shared),
    close: async () => {},
  }),
  workspace: (options) =>
    createWorkspaceServer({
      ...(options.root && { roots: options.root }),
      ...(options.db !== undefined && { db: options.db }),
      allowWrite: options.allowWrite === true,
      ...(options.maxReadBytes !== undefined && { maxReadBytes: positive(options.maxReadBytes, "--max-read-bytes") }),
      ...(options.queryTimeout !== undefined && { queryTimeoutMs: positive(options.queryTimeout, "--query-timeout") }),
      ...(options.maxAnswerBytes !== undefined && {
        maxAnswerBytes: positive(options.maxAnswerBytes, "--max-answer-bytes"),
      }),
    }),
  weather: (options) => weatherFlags.create(options as unknown as Record<string, unknown>),
  github: (options) => gitHubFlags.create(options as unknown as Record<string, unknown>),
  proxy: async (options, operands) => {
    const target = proxyTarget(operands);
    if (options.header?.length && target.kind !== "http")
      throw new UsageError("--header is for a proxied HTTP server (a URL), not for a command");
    const proxy = await createProxyServer(target, { headers: parseHeaders(options.header ?? []) });
    const what = target.kind === "http" ? target.url?.href : [target.command, ...(target.args ?? [])].join(" ");
    const ended = proxy.upstreamClosed.then(
      (reason) => `the proxied server closed the connection${reason ? `: ${reason.message}` : ""}`,
    );
    return { server: proxy.server, summary: `fronting ${what}`, ended, close: () => proxy.close() };
  },
};

/** The options only some servers understand: commander's key, the flag, and those servers. */
const OWN_OPTIONS: { key: string; flag: string; servers: string[] }[] = [
  ...["--root", "--db", "--max-read-bytes", "--query-timeout", "--max-answer-bytes"].map((flag) => ({
    key: new Option(flag).attributeName(),
    flag,
    servers: ["workspace"],
  })),
  { key: "allowWrite", flag: "--allow-write", servers: ["workspace", "github"] },
  { key: "header", flag: "--header", servers: ["proxy"] },
  ...weatherFlags.options.map((o) => ({ key: o.attributeName(), flag: o.long ?? o.flags, servers: ["weather"] })),
  ...gitHubFlags.options.map((o) => ({ key: o.attributeName(), flag: o.long ?? o.flags, servers: ["github"] })),
  { key: "redis", flag: "--redis", servers: ["everything"] },
  { key: "stateKey", flag: "--state-key", servers: ["everything"] },
];

function positive(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new UsageError(`${flag} must be a positive whole number, not "${value}"`);
  return n;
}

function portNumber(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n <= 65535))
    throw new UsageError(`--port takes a port number from 0 to 65535 (0: any free port), not "${value}"`);
  return n;
}

export function serveCommand(): Command {
  const command = new Command("serve")
    .description("Run a built-in MCP server over stdio (the default) or Streamable HTTP")
    .argument("[server]", `which server: ${Object.keys(SERVERS).join(", ")}`, "workspace")
    .argument("[target...]", "proxy: the URL of the server to front, or -- and the command that starts it")
    .addOption(new Option("--stdio", "speak MCP on stdin/stdout (the default without --port)"))
    .addOption(new Option("--port <port>", "serve Streamable HTTP on http://HOST:PORT/mcp").conflicts("stdio"))
    .addOption(new Option("--host <host>", "the address to bind with --port").default("127.0.0.1"))
    .addOption(new Option("--root <dir...>", "workspace: a directory the file tools may use (repeatable; default: .)"))
    .addOption(new Option("--db <file>", "workspace: a SQLite database (default: a built-in sample database)"))
    .addOption(
      new Option(
        "--allow-write",
        "workspace: allow changing files and the database; github: register the tools that write",
      ),
    )
    .addOption(new Option("--max-read-bytes <n>", "workspace: the largest file a read returns (default 1048576)"))
    .addOption(
      new Option(
        "--query-timeout <ms>",
        "workspace: how long one SQL statement may run before the process running it is killed (default 5000)",
      ),
    )
    .addOption(
      new Option("--max-answer-bytes <n>", "workspace: the most bytes one SQL answer may take (default 1048576)"),
    )
    .addOption(
      new Option(
        "--max-sessions <n>",
        "with --port: sessions held at once (default 10000; one client may hold a tenth)",
      ),
    )
    .addOption(
      new Option(
        "--redis <url>",
        "everything: run as one node of a cluster sharing sessions, SSE events and changes through Redis (needs --port)",
      ),
    )
    .addOption(
      new Option(
        "--idle-timeout <duration>",
        "with --port: end a session idle this long: seconds, or 90s, 15m, 2h (default 30m)",
      ),
    )
    .addOption(
      new Option(
        "--header <header>",
        'proxy: a header for the proxied HTTP server ("Name: value", repeatable)',
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(
      new Option(
        "--state-key <key>",
        "everything: the key signing multi round-trip request state, the same on every node (32+ bytes)",
      ).env("MCPKIT_STATE_KEY"),
    );
  for (const option of [...weatherFlags.options, ...gitHubFlags.options, ...authOptions()]) command.addOption(option);
  // Commander's own usage errors (an unknown option, a missing value) exit 2, as ours do.
  command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT));
  return command.action(async (name: string, operands: string[], options: ServeOptions) => {
    const make = SERVERS[name];
    if (!make) throw new UsageError(`Unknown server "${name}"; choose one of ${Object.keys(SERVERS).join(", ")}`);
    if (name !== "proxy" && operands.length > 0)
      throw new UsageError(`serve ${name} takes no further arguments (got "${operands.join(" ")}")`);
    const values = options as unknown as Record<string, unknown>;
    const stray = OWN_OPTIONS.find((o) => !o.servers.includes(name) && values[o.key] !== undefined);
    if (stray)
      throw new UsageError(
        `${stray.flag} applies to the ${stray.servers.join(" and ")} server${stray.servers.length > 1 ? "s" : ""} only`,
      );
    const port = options.port === undefined ? undefined : portNumber(options.port);
    const limits = httpLimits(options);
    const authorized = checkAuthFlags(options, options.port !== undefined);
    const cluster = options.redis === undefined ? undefined : await joinCluster(options);
    const shared: Shared = {
      ...(options.stateKey !== undefined && { requestStateKey: stateKey(options.stateKey) }),
      ...(cluster && { eventBus: cluster.eventBus, tasks: { store: cluster.taskStore } }),
    };
    const served = await make(options, operands, shared).catch(async (error) => {
      await cluster?.close();
      throw error;
    });
    try {
      if (served.summary) process.stderr.write(`mcpkit serve ${name}:\n${indent(served.summary)}\n`);
      if (name in EXPOSES && options.port !== undefined && !isLocal(options.host) && !authorized) {
        process.stderr.write(
          `mcpkit: warning: --host ${options.host} serves ${EXPOSES[name]} to the network without authentication (see --auth-server)\n`,
        );
      }
      const serving =
        port !== undefined
          ? serveHttp(
              served.server,
              port,
              options.host,
              authorized ? options : undefined,
              limits,
              served.ended,
              cluster,
            )
          : serveStdio(served.server, name, served.ended);
      await serving;
    } finally {
      await served.close();
      await cluster?.close();
    }
  });
}

type Cluster = Awaited<ReturnType<typeof import("@mcpkit/redis").connectRedisCluster>>;

function stateKey(key: string): string {
  if (Buffer.byteLength(key, "utf8") < 32)
    throw new UsageError("--state-key (or MCPKIT_STATE_KEY) must be at least 32 bytes");
  return key;
}

/** Connects to the cluster's Redis; loaded only with --redis, so other runs never load a Redis client. */
async function joinCluster(options: ServeOptions): Promise<Cluster> {
  if (options.port === undefined) throw new UsageError("--redis needs --port: a cluster's nodes serve HTTP");
  if (options.stateKey === undefined) {
    throw new UsageError(
      "--redis needs --state-key or MCPKIT_STATE_KEY: every node must sign request state with the same key",
    );
  }
  stateKey(options.stateKey);
  // An optional peer: only clusters need it (and its Redis client).
  const { connectRedisCluster } = await import("@mcpkit/redis").catch(() => {
    throw new Error("--redis needs the @mcpkit/redis package: npm install @mcpkit/redis (beside @mcpkit/cli)");
  });
  const url = options.redis as string;
  try {
    return await connectRedisCluster(url, { log: (line) => process.stderr.write(`mcpkit: ${line}\n`) });
  } catch (error) {
    throw new Error(`Cannot reach Redis at ${url}: ${(error as Error).message}`);
  }
}

/** What a server exposes to whoever reaches it: warned about on a non-local --host without authentication. */
const EXPOSES: Record<string, string> = {
  workspace: "these files",
  github: "its GitHub identity",
  proxy: "the server it fronts",
};

const isLocal = (host: string) => LOCALHOST_NAMES.includes(host) || host === "::1";

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");

/** Fails with `why` once `ended` resolves: the server cannot go on. */
const failWhen = (ended: Promise<string> | undefined) =>
  ended?.then((why) => {
    throw new Error(why);
  }) ?? new Promise<never>(() => {});

async function serveStdio(server: McpServer, name: string, ended?: Promise<string>): Promise<void> {
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

/** --max-sessions and --idle-timeout, checked before anything starts. */
function httpLimits(options: ServeOptions): HttpLimits {
  const given =
    options.maxSessions !== undefined
      ? "--max-sessions"
      : options.idleTimeout !== undefined
        ? "--idle-timeout"
        : undefined;
  if (given && options.port === undefined) throw new UsageError(`${given} applies to Streamable HTTP only: add --port`);
  return {
    ...(options.maxSessions !== undefined && { maxSessions: positive(options.maxSessions, "--max-sessions") }),
    ...(options.idleTimeout !== undefined && { idleTimeoutMs: durationMs(options.idleTimeout, "--idle-timeout") }),
  };
}

async function serveHttp(
  server: McpServer,
  port: number,
  host: string,
  auth: AuthFlags | undefined,
  limits: HttpLimits = {},
  ended?: Promise<string>,
  cluster?: Cluster,
): Promise<void> {
  // DNS-rebinding protection: a local bind answers only to local names; another bind to its own name.
  const local = isLocal(host);
  const allowedHosts = local ? LOCALHOST_NAMES : [host.includes(":") ? `[${host}]` : host, ...LOCALHOST_NAMES];
  // Made once the port is known: with authorization, the endpoint's URL is the tokens' audience.
  let streamable: StreamableHttpHandler | undefined;
  let legacy: SseHandler | undefined;
  let metadataPath: string | undefined;
  const routes = routeByPath(
    (path) =>
      path === "/mcp" || path === metadataPath
        ? streamable
        : path === "/sse" || path === "/messages"
          ? legacy
          : undefined,
    "Not found: the MCP endpoint is /mcp\n",
  );
  const router = {
    ...routes,
    async close() {
      await Promise.all([streamable?.close(), legacy?.close()]);
    },
  };
  const listening = await listen(router, { port, host }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") throw new Error(`Port ${port} on ${host} is in use: choose another with --port`);
    throw error;
  });
  const base = listening.url.href.replace(/\/$/, "");
  const resource = auth ? resourceServer(auth, `${base}/mcp`) : undefined;
  metadataPath = resource?.metadataPath;
  streamable = createStreamableHttpHandler(server, {
    allowedHosts,
    ...limits,
    ...(resource && { auth: resource }),
    ...(cluster && { sessionStore: cluster.sessionStore, eventStore: cluster.eventStore }),
  });
  // HTTP+SSE (2024-11-05) predates authorization: it is served only when tokens are not
  // required, and by one node only (its sessions live in one process).
  if (!resource && !cluster) legacy = createSseHandler(server, { allowedHosts, messagesPath: "/messages" });
  process.stderr.write(
    resource
      ? `mcpkit: serving MCP on ${base}/mcp (Streamable HTTP), tokens from ${auth?.authServer} required\n`
      : cluster
        ? `mcpkit: serving MCP on ${base}/mcp (Streamable HTTP) as a node of the cluster on ${cluster.redis.options.host}:${cluster.redis.options.port}\n`
        : `mcpkit: serving MCP on ${base}/mcp (Streamable HTTP) and ${base}/sse (HTTP+SSE)\n`,
  );
  process.stderr.write(`  try it: npx @mcpkit/cli call ${base}/mcp tools\n  Ctrl+C stops it\n`);
  try {
    await Promise.race([
      new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      }),
      failWhen(ended),
    ]);
  } finally {
    await listening.close();
  }
}
