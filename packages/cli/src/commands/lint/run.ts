import { durationMs, wholeNumber } from "@mcpkit/servers/options";
import { callTools, type LintProblem, lintLists, readLists } from "mcpkit/testing";
import { connectTarget, DEFAULT_STEP_TIMEOUT_MS, describeTarget, printable } from "../../doctor/index.js";
import { type ServerTargetOptions, serverTarget } from "../server-target.js";
import { colorsFor } from "../terminal-colors.js";
import { UsageError } from "../usage-error.js";
import { parseCall } from "./calls.js";
import { connectionProblem } from "./connection-rule.js";
import { formatProblem, formatSummary } from "./format.js";

export interface LintCommandOptions extends ServerTargetOptions {
  json?: boolean;
  timeout?: string;
  call?: string[];
  maxListBytes?: string;
}

/**
 * `mcpkit lint`: reads the server's lists raw, makes the calls asked for, and applies the
 * rules of mcpkit/testing's lint. Returns the exit code: 1 exactly when a problem of
 * severity error was found.
 */
export async function runLint(words: string[], argv: readonly string[], options: LintCommandOptions): Promise<number> {
  const target = await serverTarget(words, argv, options, "lint");
  const timeoutMs =
    options.timeout === undefined ? DEFAULT_STEP_TIMEOUT_MS : durationMs(options.timeout, "--timeout", { min: 0 });
  const calls = (options.call ?? []).map(parseCall);
  const maxListBytes =
    options.maxListBytes === undefined ? undefined : wholeNumber(options.maxListBytes, "--max-list-bytes", 1);
  const problems = await lintTarget();
  const c = colorsFor(process.stdout);
  if (options.json) process.stdout.write(`${JSON.stringify({ problems }, null, 2)}\n`);
  else {
    const lines = [c.bold(`mcpkit lint: ${describeTarget(target)}`), ...problems.map((p) => formatProblem(p, c))];
    process.stdout.write(`${[...lines, formatSummary(problems, c)].join("\n")}\n`);
  }
  return problems.some((p) => p.severity === "error") ? 1 : 0;

  async function lintTarget(): Promise<LintProblem[]> {
    let connection: Awaited<ReturnType<typeof connectTarget>>;
    try {
      connection = await connectTarget(target, timeoutMs);
    } catch (error) {
      return [connectionProblem(`Could not connect: ${printable((error as Error).message)}`)];
    }
    try {
      const lists = await readLists(connection.client);
      const known = new Set((lists.tools ?? []).map((tool) => (tool as { name?: unknown } | null)?.name));
      const unknown = calls.find((call) => !known.has(call.name));
      if (unknown)
        throw new UsageError(
          `--call ${unknown.name}: the server lists no tool of that name${lists.tools?.length ? "" : " (it lists no tools)"}`,
        );
      lists.calls = await callTools(connection.client, calls);
      return await lintLists(lists, maxListBytes === undefined ? {} : { maxListBytes });
    } finally {
      await connection.close();
    }
  }
}
