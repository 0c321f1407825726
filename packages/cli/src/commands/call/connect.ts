import { durationMs, parseEnv, parseHeaders } from "@mcpkit/servers/options";
import { isSupportedRevision, REVISIONS, type Revision } from "mcpkit";
import type { Client, ClientOptions, ServerDescription } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { VERSION } from "../../version.js";
import { rootFor } from "../connection-flags.js";
import { httpAuth } from "./auth.js";
import { UsageError } from "./exit-codes.js";
import type { Target } from "./invocation.js";

/** The command-line options that shape the connection. */
export interface ConnectOptions {
  header?: string[];
  env?: string[];
  root?: string[];
  protocol?: string;
  /** Seconds; 0 waits forever. */
  timeout?: string;
  serverStderr?: boolean;
  /** False with --no-browser: a login only prints its URL. */
  browser?: boolean;
}

/** The end of what a stdio server wrote to stderr, kept to explain why it failed. */
export interface StderrTail {
  text: string;
  /** Resolves once the server's stderr has ended (set when there is a stderr to read). */
  ended?: Promise<void>;
  /** Lines the server wrote to stdout that are not MCP, and the first of them. */
  stray?: { count: number; first: string };
  /**
   * Resolves when the server has written more to stderr and then paused (QUIET_MS), or
   * after `ms` in all (set when there is a stderr to read).
   */
  more?: (ms: number) => Promise<void>;
}

const TAIL_BYTES = 4096;
/** The pause in a server's stderr taken as the end of what it is logging. */
const QUIET_MS = 50;

/** Reads every connection option first, so a mistake there is a usage error before anything starts. */
export function clientOptions(options: ConnectOptions, handlers: Partial<ClientOptions>): ClientOptions {
  const client: ClientOptions = { name: "mcpkit-call", version: VERSION, ...handlers };
  if (options.protocol !== undefined) {
    if (!isSupportedRevision(options.protocol))
      throw new UsageError(
        `--protocol ${options.protocol} is not a revision mcpkit speaks; choose one of ${REVISIONS.join(", ")}`,
      );
    client.protocolVersion = options.protocol as Revision;
  }
  if (options.timeout !== undefined) client.timeoutMs = durationMs(options.timeout, "--timeout", { min: 0 });
  if (options.root?.length) client.roots = options.root.map(rootFor);
  return client;
}

/** What connecting needs besides the options, and what it leaves for the caller to clean up. */
export interface ConnectContext {
  client: Client;
  /** Whether a person can be asked (for a login). */
  interactive: boolean;
  warn: (error: Error) => void;
  tail: StderrTail;
  /** Run after the client has closed. */
  cleanups: (() => void)[];
}

/**
 * Connects to the server: Streamable HTTP for a URL (the transport falls back to HTTP+SSE
 * for a 2024-11-05 server), stdio for a command. The server's stderr is kept, not shown,
 * unless --server-stderr: servers log there freely, and only a failure makes it interesting.
 */
export async function connect(
  target: Target,
  options: ConnectOptions,
  { client, interactive, warn, tail, cleanups }: ConnectContext,
): Promise<ServerDescription> {
  if (target.kind === "http") {
    const headers = parseHeaders(options.header ?? []);
    // Loaded for a URL only: a command's server never needs the HTTP client.
    const { streamableHttpClientTransport } = await import("mcpkit/http-client");
    const auth = await httpAuth(target.url, {
      interactive,
      browser: options.browser !== false,
      ownAuthorization: Object.keys(headers).some((name) => name.toLowerCase() === "authorization"),
    });
    cleanups.push(auth.close);
    const transport = streamableHttpClientTransport(target.url, { headers, onError: warn, ...auth.options });
    return client.connect(transport);
  }
  if (options.header?.length) throw new UsageError("--header is for HTTP servers (a URL), not for a command");
  const transport = stdioClientTransport({
    command: target.command,
    args: target.args,
    ...(target.cwd !== undefined && { cwd: target.cwd }),
    env: parseEnv(options.env ?? []),
    stderr: options.serverStderr ? "inherit" : "pipe",
    onInvalidLine: (line) => {
      if (tail.stray) {
        tail.stray.count++;
        return;
      }
      tail.stray = { count: 1, first: line.length > 200 ? `${line.slice(0, 200)}…` : line };
      warn(new Error(`the server wrote to stdout a line that is not MCP: ${JSON.stringify(tail.stray.first)}`));
    },
  });
  const connecting = client.connect(transport);
  // connect() starts the transport before its first await, and start() spawns at once:
  // the pipe exists now, before the server can have written anything.
  const stderr = transport.stderr;
  if (stderr) {
    stderr.setEncoding("utf8");
    stderr.on("data", (chunk: string) => {
      tail.text = (tail.text + chunk).slice(-TAIL_BYTES);
    });
    tail.ended = new Promise((resolve) => stderr.once("close", () => resolve()));
    tail.more = (ms) =>
      new Promise((resolve) => {
        // A failure is often logged in several writes (a message, then its stack, or two
        // reports): once something comes, take what follows within QUIET_MS of it too.
        const done = () => {
          clearTimeout(cap);
          clearTimeout(quiet);
          stderr.off("data", onData);
          resolve();
        };
        const cap = setTimeout(done, ms).unref();
        let quiet: NodeJS.Timeout | undefined;
        // Registered after the listener above: the chunk is in the tail when this runs.
        const onData = () => {
          clearTimeout(quiet);
          quiet = setTimeout(done, QUIET_MS).unref();
        };
        stderr.on("data", onData);
      });
  }
  return connecting;
}
