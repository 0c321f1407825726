import type { CompleteParams } from "mcpkit";
import { parseArgumentWords } from "../arguments.js";
import { EXIT, UsageError } from "../exit-codes.js";
import type { Action } from "./session.js";

const USAGE =
  "complete prompt NAME ARG=PARTIAL [OTHER=VALUE…] or complete resource URI-TEMPLATE ARG=PARTIAL [OTHER=VALUE…]";

/**
 * `complete prompt NAME ARG=PARTIAL [OTHER=VALUE…]`, `complete resource TEMPLATE …`
 * (server/utilities/completion): the first key=value is the argument being completed,
 * the rest are the values already chosen (`context.arguments`).
 */
export const complete: Action = (args) => {
  const [kind, name, ...rest] = args;
  if ((kind !== "prompt" && kind !== "resource") || !name) throw new UsageError(`Write ${USAGE}`);
  const words = parseArgumentWords(rest);
  const [argument, ...context] = words;
  if (!argument || !("key" in argument)) throw new UsageError(`Name the argument to complete: ${USAGE}`);
  const chosen: Record<string, string> = {};
  for (const word of context) {
    if ("key" in word) chosen[word.key] = word.value;
    else for (const [key, value] of Object.entries(word.object)) chosen[key] = String(value);
  }
  const params: CompleteParams = {
    ref: kind === "prompt" ? { type: "ref/prompt", name } : { type: "ref/resource", uri: name },
    argument: { name: argument.key, value: argument.value },
  };
  if (context.length > 0) params.context = { arguments: chosen };
  return async ({ client, out, signal }) => {
    const result = await client.complete(params, { signal });
    if (out.json) out.data(result);
    else {
      const { values, total, hasMore } = result.completion;
      for (const value of values) out.line(value);
      // Nothing on stdout looks like a command that did nothing: say so where people look.
      if (values.length === 0) out.note(out.ce.dim(`(no completions for ${argument.key}=${argument.value})`));
      if (hasMore || (total !== undefined && total > values.length))
        out.note(out.ce.dim(`(${total !== undefined ? `${total - values.length} more` : "more"} not shown)`));
    }
    return EXIT.ok;
  };
};
