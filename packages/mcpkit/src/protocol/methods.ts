/**
 * Named sets of methods that several layers need to agree on. Each set is written once,
 * here; what a revision has at all is in revisions.ts.
 */

/**
 * basic/patterns/mrtr §Supported Requests: the only requests whose answer may be an
 * `input_required` result, and so the only ones a server may ask the client inside of
 * (on modern revisions).
 */
export const INPUT_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/**
 * transports/streamable-http §Standard Request Headers: the methods whose target goes in
 * the `Mcp-Name` header, and the parameter it is read from.
 */
export const NAMED_METHODS: Readonly<Record<string, "name" | "uri" | "taskId">> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // The Tasks extension §Streamable HTTP: Routing Headers.
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** The value `Mcp-Name` mirrors for a request, when its method has one. */
export function targetOf(method: string, params: Record<string, unknown> | undefined): unknown {
  const field = Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
  return field === undefined ? undefined : params?.[field];
}
