import type { McpServer } from "../../server/mcp-server.js";
import { connectInMemory } from "../connect-in-memory.js";
import { callTools, readLists } from "./read-lists.js";
import type { LintCall, LintOptions, LintProblem, LintRuleInfo, RawLists } from "./rule.js";
import { RULES } from "./rules/index.js";

/** Every rule lint applies, as data: id, severity, what it checks, how to fix it (docs/doctor.md). */
export const LINT_RULES: readonly LintRuleInfo[] = RULES.map(({ id, severity, summary, fix }) => ({
  id,
  severity,
  summary,
  fix,
}));

const DEFAULT_MAX_LIST_BYTES = 100_000;

/** Applies every rule to lists read from a server (`readLists`, or a live server's, as `mcpkit lint` reads them). */
export async function lintLists(lists: RawLists, options: LintOptions = {}): Promise<LintProblem[]> {
  const resolved: Required<LintOptions> = { maxListBytes: options.maxListBytes ?? DEFAULT_MAX_LIST_BYTES };
  const problems: LintProblem[] = [];
  for (const rule of RULES) problems.push(...(await rule.check(lists, resolved)));
  return problems;
}

/**
 * What in a server will break clients, or make them work worse: its lists as a client
 * connected in memory reads them, raw, through every rule (docs/doctor.md lists them).
 * `calls` are tool calls to make, so that their structuredContent is checked against
 * their outputSchema. In a server's own tests:
 *
 *   assert.deepEqual((await lint(server)).filter((p) => p.severity === "error"), []);
 */
export async function lint(
  server: McpServer,
  options: LintOptions & { calls?: LintCall[] } = {},
): Promise<LintProblem[]> {
  const { client, close } = await connectInMemory(server);
  try {
    const lists = await readLists(client);
    lists.calls = await callTools(client, options.calls ?? []);
    return await lintLists(lists, options);
  } finally {
    await close();
  }
}
