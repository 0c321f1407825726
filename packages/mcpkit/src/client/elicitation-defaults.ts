import type { ElicitParams, ElicitResult } from "../protocol/types/features.js";

/**
 * client/elicitation (SEP-1034): a field the user left out takes the schema's default,
 * so the server receives a complete answer.
 */
export function applyElicitationDefaults(
  params: ElicitParams,
  content: ElicitResult["content"],
): ElicitResult["content"] {
  if (params.mode === "url") return content;
  const properties = params.requestedSchema?.properties ?? {};
  let filled = content;
  for (const [name, schema] of Object.entries(properties)) {
    const fallback = (schema as { default?: unknown }).default;
    if (fallback === undefined || (filled && name in filled)) continue;
    filled = { ...filled, [name]: fallback as string };
  }
  return filled;
}
