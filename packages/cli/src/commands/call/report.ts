import { McpError } from "mcpkit";
import { authorizationFailure, authorizationHint, authorizationStatus } from "./auth.js";
import { EXIT, exitCodeFor, Interrupted } from "./exit-codes.js";
import type { Output } from "./output.js";
import { SamplingDeclined } from "./sample.js";

/** Says what went wrong on stderr: text for people, one JSON object with --json. */
export function report(error: unknown, out: Output, serverStderr: string): void {
  if (error instanceof Interrupted) return;
  const code = exitCodeFor(error);
  const message =
    error instanceof SamplingDeclined
      ? "You declined the server's sampling request, so the call could not finish"
      : error instanceof Error
        ? error.message
        : String(error);
  const rpc = error instanceof McpError ? error : undefined;
  const hint = authorizationHint(authorizationStatus(error), authorizationFailure(error));
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
  if (code === EXIT.usage) lines.push(ce.dim("(mcpkit call --help shows the usage)"));
  if (code === EXIT.connection && serverStderr.trim())
    lines.push(
      ce.dim("The server's stderr ended with:"),
      ...serverStderr
        .trimEnd()
        .split("\n")
        .slice(-15)
        .map((l) => `  ${l}`),
    );
  out.note(lines.join("\n"));
}
