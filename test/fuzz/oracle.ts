import { VALID_PREFIX } from "./frames.js";

/**
 * The error codes a server may answer noise with: JSON-RPC 2.0 §5.1 and the ones MCP
 * defines (resource not found, URL elicitation, 2026-07-28's header mismatch, missing
 * client capability and unsupported version).
 */
export const SPEC_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32002, -32042, -32020, -32021, -32022]);

/** A stack frame ("at f (file:1:2)") or a file path of the server's own code. */
const LEAK =
  /\bat [^\s]+ \(|\bat [^\s]+:\d+:\d+|file:\/\/\/\w|node_modules|\/[\w.-]+\/[\w.-]+\.(?:ts|js|mjs|cjs)\b|\b[A-Z]:\\(?:[\w.-]+\\)+/;

export interface Figures {
  transport: string;
  seed: number;
  frames: number;
  bytes: number;
  valid: number;
  answered: number;
  /** Error responses seen, by code. */
  errors: Record<string, number>;
  /** HTTP statuses seen, for HTTP. */
  statuses?: Record<string, number>;
  ms: number;
  /** Heap (in-process) or heap of the child, MiB: before and after, both after a GC. */
  memoryBeforeMiB?: number;
  memoryAfterMiB?: number;
}

export function newFigures(transport: string, seed: number): Figures {
  return { transport, seed, frames: 0, bytes: 0, valid: 0, answered: 0, errors: {}, ms: 0 };
}

/**
 * Checks one message the server sent: every error has a spec code and leaks no stack or
 * path (results are not checked for paths: echo answers say what they were sent). Returns
 * a problem, or undefined.
 */
export function problemWith(message: unknown, figures: Figures): string | undefined {
  if (typeof message !== "object" || message === null) return `not an object: ${JSON.stringify(message)}`;
  const m = message as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
  if (m.jsonrpc !== "2.0") return `jsonrpc is not "2.0": ${JSON.stringify(message).slice(0, 300)}`;
  if (m.error !== undefined) {
    const code = m.error.code;
    figures.errors[String(code)] = (figures.errors[String(code)] ?? 0) + 1;
    if (typeof code !== "number" || !SPEC_CODES.has(code)) return `error code ${String(code)} is not the spec's`;
    if (typeof m.error.message !== "string" || m.error.message === "") return "an error without a message";
    // The decoded text, not its JSON (whose escapes look like Windows paths).
    const said = [m.error.message, ...stringsIn(m.error.data)];
    if (said.some((text) => LEAK.test(text))) {
      return `a stack trace or file path leaked: ${JSON.stringify(message).slice(0, 500)}`;
    }
  }
  return undefined;
}

/** Whether a message answers one of the valid requests (by id). */
export const validIdOf = (message: unknown): string | undefined => {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === "string" && id.startsWith(VALID_PREFIX) ? id : undefined;
};

/** The answer a valid echo request must get. */
export function wrongAnswer(message: unknown, text: string): string | undefined {
  const result = (message as { result?: { content?: { type?: string; text?: string }[]; isError?: boolean } }).result;
  const block = result?.content?.[0];
  if (result?.isError || block?.type !== "text" || block.text !== text) {
    return `wrong answer to a valid request: ${JSON.stringify(message).slice(0, 500)}`;
  }
  return undefined;
}

function stringsIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string") found.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, found);
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) stringsIn(v, found);
  return found;
}
