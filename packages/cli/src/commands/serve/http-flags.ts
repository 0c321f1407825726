import { Option } from "commander";

/** The flags of how a server is served, shared by `serve` and `gateway` (docs/cli.md, docs/gateway.md). */
export interface ServingFlags {
  stdio?: boolean;
  port?: string;
  host: string;
  maxSessions?: string;
  idleTimeout?: string;
  redis?: string;
  stateKey?: string;
  trustProxy?: string[];
  shutdownTimeout?: string;
}

/**
 * --stdio, --port and --host, the HTTP endpoint's limits, the cluster's --redis and
 * --state-key, --trust-proxy and --shutdown-timeout. `redisNote` adds to --redis what the
 * command asks more of a node (the gateway: each reads its own --config).
 */
export const servingOptions = (redisNote?: string): Option[] => [
  new Option("--stdio", "speak MCP on stdin/stdout (the default without --port)"),
  new Option("--port <port>", "serve Streamable HTTP on http://HOST:PORT/mcp").conflicts("stdio"),
  new Option("--host <host>", "the address to bind with --port").default("127.0.0.1"),
  new Option("--max-sessions <n>", "with --port: sessions held at once (default 10000; one client may hold a tenth)"),
  new Option(
    "--idle-timeout <duration>",
    "with --port: end a session idle this long: seconds, or 90s, 15m, 2h (default 30m)",
  ),
  new Option(
    "--redis <url>",
    `run as one node of a cluster sharing sessions, SSE events and changes through Redis (needs --port${redisNote ? `; ${redisNote}` : ""})`,
  ),
  new Option(
    "--state-key <key>",
    "with --redis: the key signing multi round-trip request state, the same on every node (32+ bytes)",
  ).env("MCPKIT_STATE_KEY"),
  new Option(
    "--trust-proxy <proxies>",
    "with --port: reverse proxies (addresses, CIDR ranges, loopback or private; comma-separated, repeatable) whose X-Forwarded-For names the client, for every limit per client",
  ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
  new Option(
    "--shutdown-timeout <duration>",
    "how long SIGINT/SIGTERM may take to stop the server before it exits anyway (default 10s; a second signal exits at once)",
  ),
];
