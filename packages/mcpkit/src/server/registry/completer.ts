import type { CompleteResult } from "../../protocol/types/features.js";
import type { Context } from "../handler-context.js";

export interface CompletionContext {
  /** Arguments already resolved (completion/complete `context.arguments`). */
  arguments: Record<string, string>;
  ctx: Context;
}

/** Suggests values for one argument; more than 100 are cut to 100 with hasMore set. */
export type Completer = (
  value: string,
  context: CompletionContext,
) => string[] | CompleteResult["completion"] | Promise<string[] | CompleteResult["completion"]>;

/** server/utilities/completion: at most 100 values, with total and hasMore. */
export const MAX_COMPLETION_VALUES = 100;

export function toCompletion(answer: string[] | CompleteResult["completion"]): CompleteResult["completion"] {
  if (Array.isArray(answer)) {
    if (answer.length <= MAX_COMPLETION_VALUES) return { values: answer, total: answer.length, hasMore: false };
    return { values: answer.slice(0, MAX_COMPLETION_VALUES), total: answer.length, hasMore: true };
  }
  if (answer.values.length <= MAX_COMPLETION_VALUES) return answer;
  return { ...answer, values: answer.values.slice(0, MAX_COMPLETION_VALUES), hasMore: true };
}
