import { invalidParams, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import type { CallToolResult } from "../../../protocol/types/features.js";
import type { CreateTaskResult } from "../../../protocol/types/server-results.js";
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

async function callTool(params: ToolCallParams, call: Call): Promise<ToolCallResult> {
  const { name } = params;
  const found = call.server.tools.get(name) ?? (await catalogTool(name, call));
  const tool = guard(found, call, `tool ${name}`, () => invalidParams(`Unknown tool: ${name}`));
  const given = params.arguments ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw invalidParams(`Invalid arguments for tool ${name}: "arguments" must be an object`);

  let args: unknown = given;
  if (tool.validateInput) {
    const checked = tool.validateInput(given);
    const result = checked instanceof Promise ? await checked : checked;
    if (!result.ok) {
      const message = `Invalid arguments for tool ${name}: ${result.message}`;
      // 2025-11-25 made these tool execution errors, so the model can correct itself.
      if (call.peer.rules.toolInputErrorsAsResults)
        return { content: [{ type: "text", text: message }], isError: true };
      throw invalidParams(message);
    }
    args = result.value;
  }

  const plan = taskPlan(tool, params, call.peer);
  if (plan) {
    const { runAsTask } = await import("../../tasks/start.js");
    return runAsTask(call, tool, plan, given, () => runTool(tool, args, call));
  }
  return runTool(tool, args, call);
}

/** search_tools or call_tool while the catalog is on; a registered tool of that name came first. */
async function catalogTool(name: string, call: Call): Promise<ToolEntry | undefined> {
  if ((name !== SEARCH_TOOLS && name !== CALL_TOOL) || !catalogOn(call.server)) return undefined;
  return (await import("../../catalog/catalog.js")).catalogTool(name, call, callTool);
}

/** The handler, its result checked and fitted to the revision: the same whether or not it runs as a task. */
async function runTool(tool: ToolEntry, args: unknown, call: Call): Promise<CallToolResult> {
  let returned: ToolReturn<unknown>;
  try {
    returned = await tool.handler(args as Record<string, unknown>, call.context());
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (call.inbound.cancelled) throw error;
    // server/tools §Error Handling: execution failures are results the model can see.
    const message = error instanceof Error ? error.message : String(error);
    return { content: [{ type: "text", text: message || "Tool failed" }], isError: true };
  }
  const result = normalize(returned, tool);
  // Only an output schema makes the check asynchronous: the plain path awaits nothing more.
  return toWire(result instanceof Promise ? await result : result, call);
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
