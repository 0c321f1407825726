import type { LintCall } from "mcpkit/testing";
import { UsageError } from "../usage-error.js";

/** `--call NAME=JSON` (or NAME alone, for no arguments): a tool call whose result lint checks. */
export function parseCall(value: string): LintCall {
  const eq = value.indexOf("=");
  const name = (eq === -1 ? value : value.slice(0, eq)).trim();
  if (name === "")
    throw new UsageError(`--call takes NAME=JSON (a tool and its arguments as a JSON object), not "${value}"`);
  if (eq === -1) return { name };
  let args: unknown;
  try {
    args = JSON.parse(value.slice(eq + 1));
  } catch (error) {
    throw new UsageError(`--call ${name}=…: the arguments are not JSON (${(error as Error).message})`);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args))
    throw new UsageError(`--call ${name}=…: the arguments must be a JSON object, such as '${name}={"a":1}'`);
  return { name, arguments: args as Record<string, unknown> };
}
