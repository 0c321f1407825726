/**
 * A lint rule is data beside its function: its id, severity, what it checks and how to fix
 * what it finds live together, so the docs (docs/doctor.md), `mcpkit lint --json` and a
 * server's own tests all read them from one place.
 */

export type LintSeverity = "error" | "warning";

/** What a rule is, without its function: what `LINT_RULES` lists. */
export interface LintRuleInfo {
  /** Stable id, as `--json` and docs/doctor.md name it. */
  readonly id: string;
  /** "error": it breaks a client or the spec; "warning": it makes a client (or a model) work worse. */
  readonly severity: LintSeverity;
  /** What the rule checks, in one sentence. */
  readonly summary: string;
  /** How to fix what it finds, unless a problem says more precisely. */
  readonly fix: string;
}

/** One thing wrong, on one target: `tool:NAME`, `prompt:NAME`, `resource:URI`, `template:URI_TEMPLATE` or `server`. */
export interface LintProblem {
  /** The id of the rule that found it. */
  rule: string;
  /** The rule's severity: an error breaks a client or the spec. */
  severity: LintSeverity;
  /** What it is about: `tool:NAME`, `prompt:NAME`, `resource:URI`, `template:URI_TEMPLATE`, `server`. */
  target: string;
  /** What is wrong, in words. */
  message: string;
  /** How to fix it. */
  fix?: string;
}

/**
 * What a server's lists were when lint read them: raw, as sent (a strict client would drop
 * what lint must see), each undefined when the server does not offer it.
 */
export interface RawLists {
  /** tools/list's entries, every page. */
  tools?: unknown[];
  /** prompts/list's entries, every page. */
  prompts?: unknown[];
  /** resources/list's entries, every page. */
  resources?: unknown[];
  /** resources/templates/list's entries, every page. */
  resourceTemplates?: unknown[];
  /** The size of the tools the server listed, as JSON, in bytes (every page). */
  toolsBytes?: number;
  /** Lists that could not be read, and why. */
  failures: { list: string; message: string }[];
  /** The tool calls lint was asked to make, with what each answered. */
  calls: LintCallResult[];
}

/** A tool call lint makes to check its result (`mcpkit lint --call name=JSON`). */
export interface LintCall {
  /** The tool to call. */
  name: string;
  /** Its arguments (default: none). */
  arguments?: Record<string, unknown>;
}

/** A call lint made, and what it answered. */
export interface LintCallResult extends LintCall {
  /** The result as sent; undefined when the call failed. */
  result?: unknown;
  /** Why the call failed (a JSON-RPC error, a timeout). */
  error?: string;
}

/** How lint judges what it reads. */
export interface LintOptions {
  /** A tools/list larger than this, in bytes, is a warning (default 100,000). */
  maxListBytes?: number;
}

/** A rule: its data and the function that finds its problems in the lists. */
export interface LintRule extends LintRuleInfo {
  check(lists: RawLists, options: Required<LintOptions>): LintProblem[] | Promise<LintProblem[]>;
}

/** A problem the rule found; its fix is the rule's unless a more precise one is given. */
export function problem(rule: LintRuleInfo, target: string, message: string, fix: string = rule.fix): LintProblem {
  return { rule: rule.id, severity: rule.severity, target, message, fix };
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A target for a tool, prompt, resource or template, whatever its name turned out to be. */
export function targetOf(kind: "tool" | "prompt" | "resource" | "template", key: unknown, index: number): string {
  return typeof key === "string" && key !== "" ? `${kind}:${key}` : `${kind}:#${index + 1}`;
}
