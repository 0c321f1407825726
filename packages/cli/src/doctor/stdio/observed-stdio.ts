import type { Transport, TransportSink } from "mcpkit";
import { type StdioClientTransport, stdioClientTransport } from "mcpkit/stdio";

/** What a stdio server did besides speaking MCP: its stderr, what else it wrote on stdout, its exit. */
export interface StdioObservation {
  /** The end of its stderr (the last 8 KiB). */
  stderr: string;
  /** Lines on stdout that are not JSON-RPC messages: how many, and the first. */
  stray?: { count: number; first: string };
  /** When the process wrote its first message, ms after it started. */
  firstMessageMs?: number;
  /** The client closed the transport while the process was running: an exit after that is ours, not the server's. */
  closedByClient: boolean;
  readonly transport: StdioClientTransport;
}

const STDERR_BYTES = 8192;
const STRAY_CHARS = 200;

/** A JSON-RPC message (or a batch of them): anything else on stdout breaks a strict client. */
const isJsonRpc = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.length > 0 && value.every(isJsonRpc)
    : typeof value === "object" && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === "2.0";

/**
 * The library's stdio client transport, watched: its stderr is kept, not shown; each stdout
 * line that is not a JSON-RPC message is counted (transports §stdio: stdout carries MCP
 * messages only), whether or not it parses as JSON (a log line in JSON is as stray as a
 * banner). The transport kills the server quickly when closed: a diagnosis must not wait.
 */
export function observedStdio(target: { command: string; args: string[]; env: Record<string, string>; cwd?: string }): {
  transport: Transport;
  observation: StdioObservation;
} {
  const started = Date.now();
  const stray = (line: string) => {
    if (observation.stray) observation.stray.count++;
    else observation.stray = { count: 1, first: line.length > STRAY_CHARS ? `${line.slice(0, STRAY_CHARS)}…` : line };
  };
  const inner = stdioClientTransport({
    command: target.command,
    args: target.args,
    env: target.env,
    ...(target.cwd !== undefined && { cwd: target.cwd }),
    stderr: "pipe",
    killTimeoutMs: 1000,
    onInvalidLine: stray,
  });
  const observation: StdioObservation = { stderr: "", transport: inner, closedByClient: false };
  const transport: Transport = {
    binding: "stdio",
    async start(sink: TransportSink) {
      const watched: TransportSink = {
        message(value, info) {
          observation.firstMessageMs ??= Date.now() - started;
          if (!isJsonRpc(value)) stray(JSON.stringify(value));
          sink.message(value, info);
        },
        invalid: (error) => sink.invalid(error),
        close: (reason) => sink.close(reason),
      };
      const starting = inner.start(watched);
      // start() spawns at once: the pipe exists before the server can have written anything.
      inner.stderr?.setEncoding("utf8");
      inner.stderr?.on("data", (chunk: string) => {
        observation.stderr = (observation.stderr + chunk).slice(-STDERR_BYTES);
      });
      await starting;
    },
    send: (message, options) => inner.send(message, options),
    close: () => {
      if (inner.exit === undefined) observation.closedByClient = true;
      return inner.close();
    },
  };
  return { transport, observation };
}
