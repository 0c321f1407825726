import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { CallToolResult } from "../protocol/types/features.js";
import { ToolOutputError } from "./output-schemas.js";

/** What `callTool` resolves with: `structuredContent` typed by the caller's output schema when it gave one. */
export type ToolResultOf<S> = [S] extends [StandardSchemaV1]
  ? Omit<CallToolResult, "structuredContent"> & { structuredContent?: StandardSchemaV1.InferOutput<S> }
  : CallToolResult;

/**
 * Checks a result's structuredContent against the schema the caller expects (an error
 * result carries none to check). A mismatch rejects the call with a ToolOutputError
 * ("schema-mismatch"), rather than handing the caller a value its type misdescribes.
 */
export async function checkStructured(
  tool: string,
  result: CallToolResult,
  schema: StandardSchemaV1,
): Promise<CallToolResult> {
  if (result.isError || result.structuredContent === undefined) return result;
  const checked = await schema["~standard"].validate(result.structuredContent);
  if (checked.issues) {
    const why = checked.issues.map((issue) => issue.message).join("; ");
    throw new ToolOutputError(tool, result, "schema-mismatch", why);
  }
  return { ...result, structuredContent: checked.value as Record<string, unknown> };
}
