import { invalidParams, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import type { CallToolResult } from "../../../protocol/types/features.js";
import type { CreateTaskResult } from "../../../protocol/types/server-results.js";
import type { Validation } from "../../../schema/validator.js";
import { CALL_TOOL, catalogOn, SEARCH_TOOLS } from "../../catalog/catalog-options.js";
import type { ToolEntry, ToolReturn } from "../../registry/tool.js";
import { taskPlan } from "../../tasks/plan.js";
import { guard } from "../authorization.js";
import { encodeContents } from "../encode.js";
import { listPage } from "../list-page.js";
import { type Call, type Methods, method } from "../method.js";

/** tools/call's params as read: the name; the arguments are checked once the tool is known. */
export type ToolCallParams = JsonObject & { name: string };

export type ToolCallResult = CallToolResult | CreateTaskResult;

/** server/tools */
export const toolMethods: Methods<"tools/list" | "tools/call"> = {
  "tools/list": method({
    capability: (caps) => caps.tools,
    // The catalog (past a threshold of tools) and the tasks runtime load on first use.
    handler: (params, call) =>
      catalogOn(call.server)
        ? import("../../catalog/catalog.js").then((catalog) => catalog.catalogList(call))
        : listPage(call.server.tools, params, call, (tools) => ({ tools })),
  }),
  "tools/call": method({
    capability: (caps) => caps.tools,
    params: toolCallParams,
    handler: callTool,
  }),
};

function toolCallParams(params: JsonObject): ToolCallParams {
  if (typeof params.name !== "string") throw invalidParams('tools/call needs a string "name"');
  return params as ToolCallParams;
}

/**
 * tools/call, synchronous from end to end while the tool's validator and handler are: a
 * plain tool answers without a promise, a closure or a turn of the microtask queue.
 */
function callTool(params: ToolCallParams, call: Call): ToolCallResult | Promise<ToolCallResult> {
  const found = call.server.tools.get(params.name);
  return found === undefined ? callUnregistered(params, call) : callEntry(found, params, call);
}

/** search_tools or call_tool while the catalog is on (loaded then); else an unknown tool. */
async function callUnregistered(params: ToolCallParams, call: Call): Promise<ToolCallResult> {
  const { name } = params;
  const catalog =
    (name === SEARCH_TOOLS || name === CALL_TOOL) && catalogOn(call.server)
      ? (await import("../../catalog/catalog.js")).catalogTool(name, call, callTool)
      : undefined;
  return callEntry(catalog, params, call);
}

const unknownTool = (name: string) => invalidParams(`Unknown tool: ${name}`);

function callEntry(
  found: ToolEntry | undefined,
  params: ToolCallParams,
  call: Call,
): ToolCallResult | Promise<ToolCallResult> {
  const tool = guard(found, call, "tool", params.name, unknownTool);
  const given = params.arguments ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw invalidParams(`Invalid arguments for tool ${params.name}: "arguments" must be an object`);
  if (!tool.validateInput) return start(tool, params, given, given, call);
  const checked = tool.validateInput(given);
  return checked instanceof Promise
    ? checked.then((result) => validated(tool, params, given, result, call))
    : validated(tool, params, given, checked, call);
}

function validated(
  tool: ToolEntry,
  params: ToolCallParams,
  given: object,
  result: Validation,
  call: Call,
): ToolCallResult | Promise<ToolCallResult> {
  if (!result.ok) {
    const message = `Invalid arguments for tool ${params.name}: ${result.message}`;
    // 2025-11-25 made these tool execution errors, so the model can correct itself.
    if (call.peer.rules.toolInputErrorsAsResults) return { content: [{ type: "text", text: message }], isError: true };
    throw invalidParams(message);
  }
  return start(tool, params, given, result.value, call);
}

/** Runs the handler, or a task that runs it (the tasks runtime loads then). */
function start(
  tool: ToolEntry,
  params: ToolCallParams,
  given: object,
  args: unknown,
  call: Call,
): ToolCallResult | Promise<ToolCallResult> {
  const plan = taskPlan(tool, params, call.peer);
  if (!plan) return runTool(tool, args, call);
  return import("../../tasks/start.js").then(({ runAsTask }) =>
    runAsTask(call, tool, plan, given, async () => runTool(tool, args, call)),
  );
}

/** The handler, its result checked and fitted to the revision: the same whether or not it runs as a task. */
function runTool(tool: ToolEntry, args: unknown, call: Call): CallToolResult | Promise<CallToolResult> {
  let returned: ToolReturn<unknown> | PromiseLike<ToolReturn<unknown>>;
  try {
    returned = tool.handler(args as Record<string, unknown>, call.context());
  } catch (error) {
    return failed(error, call);
  }
  if (isThenable(returned))
    return Promise.resolve(returned).then(
      (value) => finish(value, tool, call),
      (error: unknown) => failed(error, call),
    );
  return finish(returned, tool, call);
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

/** server/tools §Error Handling: execution failures are results the model can see. */
function failed(error: unknown, call: Call): CallToolResult {
  if (error instanceof McpError) throw error;
  if (call.inbound.cancelled) throw error;
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: "text", text: message || "Tool failed" }], isError: true };
}

function finish(returned: ToolReturn<unknown>, tool: ToolEntry, call: Call): CallToolResult | Promise<CallToolResult> {
  const result = normalize(returned, tool);
  // Only an output schema makes the check asynchronous.
  return result instanceof Promise ? result.then((checked) => toWire(checked, call)) : toWire(result, call);
}

function normalize(returned: ToolReturn<unknown>, tool: ToolEntry): CallToolResult | Promise<CallToolResult> {
  if (typeof returned !== "string" && (typeof returned !== "object" || returned === null))
    throw new TypeError(`Tool ${tool.key} returned ${String(returned)}; return a string or { content }`);
  const result: CallToolResult =
    typeof returned === "string" ? { content: [{ type: "text", text: returned }] } : (returned as CallToolResult);
  if (tool.validateOutput && !result.isError) return checkOutput(result, tool, tool.validateOutput);
  return withContent(result);
}

async function checkOutput(
  result: CallToolResult,
  tool: ToolEntry,
  validate: NonNullable<ToolEntry["validateOutput"]>,
): Promise<CallToolResult> {
  const structured = result.structuredContent;
  if (structured === undefined)
    return invalidOutput(tool, "it declares an outputSchema but returned no structuredContent");
  const checked = await validate(structured);
  if (!checked.ok) return invalidOutput(tool, `structuredContent does not match its outputSchema: ${checked.message}`);
  return withContent(result);
}

/** server/tools §Structured Content: structured content alone is also serialized as text for older clients. */
function withContent(result: CallToolResult): CallToolResult {
  if (result.content !== undefined) return result;
  const structured = result.structuredContent;
  return { ...result, content: structured === undefined ? [] : [{ type: "text", text: JSON.stringify(structured) }] };
}

function invalidOutput(tool: ToolEntry, why: string): CallToolResult {
  return { content: [{ type: "text", text: `Tool ${tool.key} produced an invalid result: ${why}` }], isError: true };
}

function toWire(result: CallToolResult, call: Call): CallToolResult {
  const rules = call.peer.rules;
  const content = encodeContents(result.content, rules);
  if (content === result.content && (rules.structuredOutput || result.structuredContent === undefined)) return result;
  const { structuredContent, ...rest } = result;
  const out: CallToolResult = { ...rest, content };
  if (rules.structuredOutput && structuredContent !== undefined) out.structuredContent = structuredContent;
  return out;
}
