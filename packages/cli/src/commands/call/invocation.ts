import { UsageError } from "./exit-codes.js";

/** The actions `mcpkit call` knows, in the order its help lists them. */
export const ACTION_NAMES = [
  "info",
  "tools",
  "resources",
  "templates",
  "prompts",
  "call",
  "read",
  "prompt",
  "complete",
  "watch",
  "task",
] as const;

export type ActionName = (typeof ACTION_NAMES)[number];

export type Target = { kind: "http"; url: URL } | { kind: "stdio"; command: string; args: string[]; cwd?: string };

export interface Invocation {
  target: Target;
  action: ActionName;
  /** The words after the action: a tool name, key=value pairs, a URI… */
  args: string[];
  /**
   * `-- COMMAND ARGS` without an action: ARGS went to the command, but one of them may be
   * a tool the user meant to call (checked once the server is known).
   */
  commandArgs?: string[];
}

const isAction = (word: string | undefined): word is ActionName =>
  (ACTION_NAMES as readonly string[]).includes(word ?? "");

const isUrl = (word: string | undefined) => word !== undefined && /^https?:\/\//i.test(word);

/**
 * Splits the positional words into server, action and the action's arguments. `dashed`
 * is how many of the words came after `--` (commander drops the `--` itself):
 *
 *   URL [ACTION ARGS…]                    Streamable HTTP (or HTTP+SSE)
 *   [ACTION ARGS…] -- COMMAND [ARGS…]     stdio; unambiguous
 *   -- COMMAND [ARGS…] [ACTION ARGS…]     stdio; the action is the first action word after
 *                                         COMMAND, so a server argument that is an action
 *                                         word needs the form above
 *
 * No action means `info`. In the first two forms a word that names no action is a tool to
 * call, so `mcpkit call URL add a=1` reads as it sounds (`call URL call add a=1` still works).
 */
export function parseInvocation(words: string[], dashed: number): Invocation {
  const before = words.slice(0, words.length - dashed);
  const after = words.slice(words.length - dashed);
  if (dashed === 0) {
    const [url, ...rest] = before;
    if (!isUrl(url)) {
      throw new UsageError(
        url === undefined
          ? "Name a server: a URL (http://…/mcp) or, after --, the command that starts it"
          : `"${url}" is not a URL; to start a server over stdio, put its command after --`,
      );
    }
    return { target: httpTarget(url as string), ...actionOrTool(rest) };
  }
  if (after.length === 0) throw new UsageError("Give the command that starts the server after --");
  if (isUrl(before[0])) throw new UsageError("Give either a URL or a command after --, not both");
  const [command, ...rest] = after as [string, ...string[]];
  if (before.length > 0) return { target: { kind: "stdio", command, args: rest }, ...actionOrTool(before) };
  const at = rest.findIndex(isAction);
  if (at === -1) return { target: { kind: "stdio", command, args: rest }, action: "info", args: [], commandArgs: rest };
  return {
    target: { kind: "stdio", command, args: rest.slice(0, at) },
    action: rest[at] as ActionName,
    args: rest.slice(at + 1),
  };
}

function httpTarget(url: string): Target {
  try {
    return { kind: "http", url: new URL(url) };
  } catch {
    throw new UsageError(`"${url}" is not a valid URL`);
  }
}

/** `ACTION ARGS…`, or `TOOL ARGS…` (a call) when the first word names no action; nothing is `info`. */
function actionOrTool([word, ...args]: string[]): { action: ActionName; args: string[] } {
  if (word === undefined) return { action: "info", args: [] };
  if (isAction(word)) return { action: word, args };
  if (word.includes("=") || word.trimStart().startsWith("{"))
    throw new UsageError(`"${word}" is an argument: name the tool first (TOOL key=value…) or an action`);
  return { action: "call", args: [word, ...args] };
}

/**
 * How many words followed the first `--` of the command line. Commander hands the words
 * after `--` to the command as ordinary operands, so the split is read from the raw argv.
 */
export function countDashed(rawArgs: readonly string[]): number {
  const dash = rawArgs.indexOf("--");
  return dash === -1 ? 0 : rawArgs.length - dash - 1;
}
