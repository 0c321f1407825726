import { ErrorCode, invalidParams, McpError } from "../../jsonrpc/errors.js";
import type { CallToolResult, ListToolsResult, Tool } from "../../protocol/types/features.js";
import type { CreateTaskResult } from "../../protocol/types/server-results.js";
import { visible } from "../dispatch/authorization.js";
import { encodeDescriptor } from "../dispatch/encode.js";
import type { Call } from "../dispatch/method.js";
import type { Registry } from "../registry/registry.js";
import { type ToolEntry, type ToolReturn, toolEntry } from "../registry/tool.js";
import { CALL_TOOL, SEARCH_TOOLS } from "./catalog-options.js";
import { ToolIndex } from "./search.js";

const MAX_LIMIT = 50;
/** A request in words is a sentence or two; a longer query is refused before any work (and never echoed). */
export const MAX_QUERY_LENGTH = 1000;

/** The pieces made once per catalog: its index, and the two tools' entries without a handler. */
interface Built {
  index: ToolIndex;
  search: ToolEntry;
  call: ToolEntry;
}

const built = new WeakMap<readonly ToolEntry[], Built>();

/** The catalog of the tools enabled now; callers ask `catalogOn` first. */
function active(server: Registry): Built {
  const tools = server.tools.enabled();
  let made = built.get(tools);
  if (!made) {
    made = build(tools, (server.options.toolCatalog || undefined)?.limit ?? 8);
    built.set(tools, made);
  }
  return made;
}

function build(tools: readonly ToolEntry[], limit: number): Built {
  const unused = () => {
    throw new Error("bound per call");
  };
  const search = toolEntry(
    SEARCH_TOOLS,
    {
      title: "Search tools",
      description:
        `Finds tools of this server (too many to list them all) for a task, best match first, ` +
        `with each one's input schema. Describe what you want to do in a few words. Call a tool found with ${CALL_TOOL}, or by its name.`,
      input: {
        type: "object",
        properties: {
          query: {
            type: "string",
            maxLength: MAX_QUERY_LENGTH,
            description: "What you want to do, in words (e.g. 'list open issues of a repository')",
          },
          limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `How many tools (default ${limit})` },
        },
        required: ["query"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    },
    unused,
  );
  const call = toolEntry(
    CALL_TOOL,
    {
      title: "Call a tool",
      description: `Calls a tool that ${SEARCH_TOOLS} found, by its name, with arguments that match its input schema.`,
      input: {
        type: "object",
        properties: {
          name: { type: "string", description: "The tool's name" },
          arguments: { type: "object", description: "The tool's arguments" },
        },
        required: ["name"],
        additionalProperties: false,
      },
    },
    unused,
  );
  const index = new ToolIndex(tools.map((t) => t.definition));
  return { index, search, call };
}

/** tools/list while the catalog is on (`catalogOn`): the two catalog tools and the pinned ones. */
export function catalogList(call: Call): ListToolsResult {
  const catalog = active(call.server);
  const pinned = (call.server.options.toolCatalog || undefined)?.pinned ?? [];
  const shown: Tool[] = [catalog.search.definition, catalog.call.definition];
  for (const name of pinned) {
    const tool = call.server.tools.get(name);
    if (tool && visible(tool, call)) shown.push(tool.definition);
  }
  return { tools: shown.map((tool) => encodeDescriptor(tool, call.peer.rules)) };
}

/** Runs a tools/call the way handlers/tools.ts does (validation, tasks, results fitted to the revision). */
export type CallTool = (
  params: { name: string; arguments: Record<string, unknown> },
  call: Call,
) => CallToolResult | CreateTaskResult | Promise<CallToolResult | CreateTaskResult>;

/**
 * The catalog tool named `name`, bound to this call, while the catalog is on (`catalogOn`);
 * a registered tool of the same name comes first (the caller looks it up before asking here).
 */
export function catalogTool(name: string, call: Call, callTool: CallTool): ToolEntry | undefined {
  const catalog = active(call.server);
  // The arguments were checked against the input schemas above before a handler runs.
  if (name === SEARCH_TOOLS)
    return {
      ...catalog.search,
      // Before the schema's validator, whose message might quote the query: a protocol error in every revision.
      validateInput: (args) => {
        const { query } = args as { query?: unknown };
        if (typeof query === "string" && query.length > MAX_QUERY_LENGTH)
          throw invalidParams(
            `${SEARCH_TOOLS} takes a query of at most ${MAX_QUERY_LENGTH} characters (this one has ${query.length}): describe the task in a few words`,
          );
        return catalog.search.validateInput ? catalog.search.validateInput(args) : { ok: true, value: args };
      },
      handler: (args) =>
        searchTools(catalog, String(args.query), typeof args.limit === "number" ? args.limit : undefined, call),
    };
  if (name === CALL_TOOL)
    return {
      ...catalog.call,
      handler: (args) =>
        callFound(String(args.name), args.arguments as Record<string, unknown> | undefined, call, callTool),
    };
  return undefined;
}

function searchTools(catalog: Built, query: string, limit: number | undefined, call: Call) {
  const wanted = limit ?? (call.server.options.toolCatalog || undefined)?.limit ?? 8;
  const found: { name: string; title?: string; description?: string; inputSchema: unknown }[] = [];
  for (const hit of catalog.index.search(query)) {
    if (found.length >= wanted) break;
    const entry = call.server.tools.get(hit.tool.name);
    if (!entry || !visible(entry, call)) continue;
    const { name, title, description, inputSchema } = entry.definition;
    found.push({
      name,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      inputSchema,
    });
  }
  const structuredContent = { tools: found };
  // The query is not repeated: the caller has it, and a peer's text echoed back is a channel for it.
  const text = found.length === 0 ? "No tool matches the query. Try other words." : JSON.stringify(structuredContent);
  return { content: [{ type: "text" as const, text }], structuredContent };
}

async function callFound(
  name: string,
  args: Record<string, unknown> | undefined,
  call: Call,
  callTool: CallTool,
): Promise<ToolReturn<unknown>> {
  if (name === CALL_TOOL)
    return { content: [{ type: "text" as const, text: `${CALL_TOOL} cannot call itself` }], isError: true };
  try {
    // A tool that ran as a task answers with the task, passed on as this call's result.
    return (await callTool({ name, arguments: args ?? {} }, call)) as ToolReturn<unknown>;
  } catch (error) {
    // An unknown name or bad arguments: a result the model can correct, not a protocol error.
    if (error instanceof McpError && error.code === ErrorCode.InvalidParams)
      return { content: [{ type: "text" as const, text: error.message }], isError: true };
    throw error;
  }
}
