import { ErrorCode, McpError } from "mcpkit";
import { authorizationFailure, authorizationHint, authorizationStatus } from "./auth.js";
import { EXIT, exitCodeFor, Interrupted } from "./exit-codes.js";
import type { Output } from "./output.js";
import { SamplingDeclined } from "./sample.js";

/** What is known of the server that failed, to explain it. */
export interface ServerTrace {
  /** How it was reached: "stdio" (a command) or "http" (a URL), and the URL. */
  target: { kind: "stdio" } | { kind: "http"; url: URL };
  /** The end of its stderr (stdio). */
  stderr: string;
  /** Lines it wrote to stdout that are not MCP (stdio). */
  stray?: { count: number; first: string };
  /** Whether its stderr is shown as it goes (--server-stderr). */
  stderrShown: boolean;
}

/** Says what went wrong on stderr: text for people, one JSON object with --json. */
export function report(error: unknown, out: Output, server: ServerTrace): void {
  if (error instanceof Interrupted) return;
  const code = exitCodeFor(error);
  const failure = authorizationFailure(error);
  const message =
    error instanceof SamplingDeclined
      ? "You declined the server's sampling request, so the call could not finish"
      : failure === "no_redirect"
        ? // The library's words name its options (redirectUri…): a person here needs the CLI's.
          "The server requires authorization, and there is no stored login for it"
        : error instanceof Error
          ? error.message
          : String(error);
  const rpc = error instanceof McpError ? error : undefined;
  const hint = authorizationHint(authorizationStatus(error), failure);
  if (out.json) {
    const detail: Record<string, unknown> = { message };
    if (rpc) detail.code = rpc.code;
    if (rpc?.data !== undefined) detail.data = rpc.data;
    process.stderr.write(`${JSON.stringify({ error: detail, exitCode: code })}\n`);
    return;
  }
  const ce = out.ce;
  const lines = [
    `${ce.red("mcpkit call:")} ${message}${rpc && code === EXIT.protocol ? ce.dim(` (JSON-RPC error ${rpc.code})`) : ""}`,
  ];
  if (rpc?.data !== undefined && code === EXIT.protocol) {
    const data = JSON.stringify(rpc.data);
    lines.push(ce.dim(data.length > 500 ? `${data.slice(0, 500)}…` : data));
  }
  if (hint) lines.push(hint);
  const needs = (rpc?.data as { requiredCapabilities?: Record<string, unknown> } | undefined)?.requiredCapabilities;
  if (needs && ("elicitation" in needs || "sampling" in needs))
    lines.push(
      "mcpkit call answers sampling and elicitation only at a terminal (stdin and stderr), without --no-interactive.",
    );
  lines.push(...serverHints(rpc, code, server, ce));
  if (code === EXIT.usage) lines.push(ce.dim("(mcpkit call --help shows the usage)"));
  if (code === EXIT.connection && server.stderr.trim()) lines.push(...stderrTail(server.stderr, ce));
  out.note(lines.join("\n"));
}

/** The last lines a stdio server wrote to stderr, under a heading. */
const stderrTail = (stderr: string, ce: Output["ce"]) => [
  ce.dim("The server's stderr ended with:"),
  ...stderr
    .trimEnd()
    .split("\n")
    .slice(-15)
    .map((l) => `  ${l}`),
];

/** What the kind of failure suggests about the server: where MCP usually is, what it wrote, where its logs are. */
function serverHints(rpc: McpError | undefined, code: number, server: ServerTrace, ce: Output["ce"]): string[] {
  const hints: string[] = [];
  const target = server.target;
  const notFound = (rpc?.data as { status?: unknown } | undefined)?.status === 404 || rpc?.httpStatus === 404;
  if (target.kind === "http" && notFound && !/\/(mcp|sse)\/?$/.test(target.url.pathname)) {
    // At the origin's /mcp first (where most servers are), then under the path given.
    const tries = [new URL("/mcp", target.url).href];
    const under = new URL(target.url.href);
    under.pathname = `${under.pathname.replace(/\/$/, "")}/mcp`;
    if (under.href !== tries[0]) tries.push(under.href);
    hints.push(`Nothing answered MCP at ${target.url.href}; most servers serve it at /mcp: try ${tries.join(" or ")}`);
  }
  if (target.kind === "http" && code === EXIT.connection && /\(ECONNREFUSED\)$/.test(rpc?.message ?? ""))
    hints.push(`Nothing is listening on ${target.url.host}: is the server running, and on that port?`);
  if (server.stray && code === EXIT.connection)
    hints.push(
      `The server wrote ${server.stray.count} line${server.stray.count > 1 ? "s" : ""} to stdout that ${server.stray.count > 1 ? "are" : "is"} not MCP (the first: ${JSON.stringify(server.stray.first)}). A stdio server must write only JSON-RPC messages to stdout and its logs to stderr; it may be printing a banner or using console.log.`,
    );
  // An Internal error hides what failed: the server's own log says (server/tools §Error Handling).
  if (target.kind === "stdio" && rpc?.code === ErrorCode.InternalError && code === EXIT.protocol) {
    if (server.stderr.trim()) hints.push(...stderrTail(server.stderr, ce));
    else if (!server.stderrShown)
      hints.push(
        "The server logged nothing that was kept; run again with --server-stderr to see what it writes to stderr.",
      );
  }
  return hints;
}
