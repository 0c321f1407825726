import { invalidParams, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import type { CallToolResult } from "../../../protocol/types/features.js";
import { catalogList, catalogTool } from "../../catalog/catalog.js";
import type { ToolEntry, ToolReturn } from "../../registry/tool.js";
import { taskPlan } from "../../tasks/plan.js";
import { runAsTask } from "../../tasks/start.js";
import { guard } from "../authorization.js";
import type { Call, MethodTable } from "../call.js";
import { encodeContents } from "../encode.js";
import { listPage } from "../list-page.js";

/** server/tools */
export const toolMethods: MethodTable = {
  "tools/list": {
    capability: (caps) => caps.tools,
    handler: (params, call) => catalogList(call) ?? listPage(call.server.tools, params, call, "tools"),
  },
  "tools/call": {
    capability: (caps) => caps.tools,
    handler: callTool,
  },
};

async function callTool(params: JsonObject, call: Call): Promise<JsonObject> {
  const { name } = params;
  if (typeof name !== "string") throw invalidParams('tools/call needs a string "name"');
  const tool = guard(call.server.tools.get(name) ?? catalogTool(name, call, callTool), call, `tool ${name}`, () =>
    invalidParams(`Unknown tool: ${name}`),
  );
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
  if (plan) return runAsTask(call, tool, plan, given, () => runTool(tool, args, call));
  return runTool(tool, args, call);
}

/** The handler, its result checked and fitted to the revision: the same whether or not it runs as a task. */
async function runTool(tool: ToolEntry, args: unknown, call: Call): Promise<JsonObject> {
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
  return toWire(await normalize(returned, tool), call);
}

async function normalize(returned: ToolReturn<unknown>, tool: ToolEntry): Promise<CallToolResult> {
  if (typeof returned !== "string" && (typeof returned !== "object" || returned === null))
    throw new TypeError(`Tool ${tool.key} returned ${String(returned)}; return a string or { content }`);
  const result: CallToolResult =
    typeof returned === "string" ? { content: [{ type: "text", text: returned }] } : (returned as CallToolResult);
  const structured = result.structuredContent;
  if (tool.validateOutput && !result.isError) {
    if (structured === undefined)
      return invalidOutput(tool, "it declares an outputSchema but returned no structuredContent");
    const checked = await tool.validateOutput(structured);
    if (!checked.ok)
      return invalidOutput(tool, `structuredContent does not match its outputSchema: ${checked.message}`);
  }
  if (result.content === undefined) {
    // server/tools §Structured Content: also serialize it as text for older clients.
    return { ...result, content: structured === undefined ? [] : [{ type: "text", text: JSON.stringify(structured) }] };
  }
  return result;
}

function invalidOutput(tool: ToolEntry, why: string): CallToolResult {
  return { content: [{ type: "text", text: `Tool ${tool.key} produced an invalid result: ${why}` }], isError: true };
}

function toWire(result: CallToolResult, call: Call): JsonObject {
  const rules = call.peer.rules;
  const content = encodeContents(result.content, rules);
  if (content === result.content && (rules.structuredOutput || result.structuredContent === undefined))
    return result as unknown as JsonObject;
  const { structuredContent, ...rest } = result;
  const out: JsonObject = { ...rest, content };
  if (rules.structuredOutput && structuredContent !== undefined) out.structuredContent = structuredContent;
  return out;
}
