import { type HeaderParam, scanHeaderParams } from "../../protocol/mcp-headers.js";
import type { TaskSupport } from "../../protocol/tasks.js";
import type { Icon, Meta } from "../../protocol/types/common.js";
import type { ContentBlock } from "../../protocol/types/content.js";
import type { CallToolResult, Tool, ToolAnnotations } from "../../protocol/types/features.js";
import type { Infer, SchemaInput } from "../../schema/standard.js";
import { compileSchema, type Validator } from "../../schema/validator.js";
import type { Context } from "../handler-context.js";
import type { VisibilityRule } from "../visibility.js";
import type { Keyed } from "./feature-set.js";

export interface ToolConfig<In extends SchemaInput | undefined, Out extends SchemaInput | undefined> {
  title?: string;
  description?: string;
  /** The arguments: a Standard Schema (zod, valibot, arktype) or a JSON Schema object. */
  input?: In;
  /** The structuredContent the tool returns; validated before it is sent. */
  output?: Out;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
  /** Disabled tools are neither listed nor callable (default true). */
  enabled?: boolean;
  /** OAuth scopes a caller needs (checked when the request carries a verified token). */
  scopes?: string[];
  /**
   * Whether a call may run as a task (tasks, docs/tasks.md): "optional" runs it as one when
   * the client supports tasks, "required" refuses clients that do not. The handler is the
   * same either way.
   */
  task?: TaskSupport | TaskOptions;
  /**
   * Shows it only to some callers (by principal, session or client); hidden, it is neither
   * listed nor known by name. Clients are told of list changes only when their view changed.
   */
  visible?: VisibilityRule;
}

export interface TaskOptions {
  support: TaskSupport;
  /** How long the task and its result are kept, from creation, ms (null: until the server stops). */
  ttlMs?: number | null;
  /** How often clients should poll, ms. */
  pollIntervalMs?: number;
  /**
   * "handler": the call stays an ordinary request until the handler calls
   * `ctx.startTask()`, so it can gather input first (multi round-trip on 2026-07-28;
   * a 2025-11-25 client that asked for a task gets it at once); "call" (default): the
   * task starts before the handler runs.
   */
  startsAt?: "call" | "handler";
}

/** A tool execution error (server/tools §Error Handling): what `toolError()` builds. It needs no structuredContent. */
export interface ToolErrorResult {
  content: ContentBlock[];
  isError: true;
  structuredContent?: undefined;
  _meta?: Meta;
}

type ResultFields = Omit<CallToolResult, "content" | "structuredContent" | "isError">;

/**
 * What a tool handler may return. Without an `output` schema: a full result, or a string
 * for one text block. With one: a result carrying `structuredContent` of the schema's type
 * (what `structured()` builds), or an error result (`toolError()`); a string or a result
 * without structuredContent does not compile, as it would fail at run time.
 */
export type ToolReturn<Out = undefined> = [Out] extends [SchemaInput]
  ? (ResultFields & { content?: ContentBlock[]; structuredContent: Infer<Out>; isError?: false }) | ToolErrorResult
  :
      | string
      | (ResultFields & { content?: ContentBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean });

export type ToolArgs<In> = In extends SchemaInput ? Infer<In> : Record<string, unknown>;

export type ToolHandler<In, Out> = (args: ToolArgs<In>, ctx: Context) => ToolReturn<Out> | Promise<ToolReturn<Out>>;

export interface ToolEntry extends Keyed {
  definition: Tool;
  visible?: VisibilityRule | undefined;
  scopes: string[] | undefined;
  /** Parameters mirrored into Mcp-Param-* headers on 2026-07-28 HTTP (x-mcp-header). */
  headerParams: HeaderParam[];
  validateInput: Validator | undefined;
  validateOutput: Validator | undefined;
  handler: ToolHandler<unknown, unknown>;
  /** Task support; undefined for a tool that never runs as a task. */
  task: TaskOptions | undefined;
}

/**
 * server/tools §Tool Names (2025-11-25 and 2026-07-28): 1–128 of A–Z a–z 0–9 _ - . and
 * nothing else; hosts pass tool names to model APIs that refuse other characters.
 */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Why a name is not a tool name, in words that say what to change. */
function toolNameProblem(name: string): string {
  if (name.length === 0) return "it is empty";
  if (name.length > 128) return `it is ${name.length} characters long (at most 128)`;
  const others = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ""))].map((c) => JSON.stringify(c));
  return `${others.join(", ")} ${others.length === 1 ? "is" : "are"} not allowed`;
}

/** Builds a tool entry; schemas are compiled here, once. */
export function toolEntry(
  name: string,
  config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>,
  handler: ToolHandler<unknown, unknown>,
): ToolEntry {
  if (!TOOL_NAME.test(name))
    throw new TypeError(
      `Tool name "${name}" must be 1–128 characters of A–Z, a–z, 0–9, "_", "-" and "." (server/tools §Tool Names): ${toolNameProblem(name)}`,
    );
  const input = config.input === undefined ? undefined : compileSchema(config.input);
  const output = config.output === undefined ? undefined : compileSchema(config.output);
  for (const [what, compiled] of [
    ["input", input],
    ["output", output],
  ] as const) {
    if (compiled && compiled.jsonSchema.type !== "object")
      throw new TypeError(`Tool "${name}": the ${what} schema must describe an object (type: "object")`);
  }
  const headers = input ? scanHeaderParams(input.jsonSchema) : { valid: true as const, params: [] };
  if (!headers.valid) throw new TypeError(`Tool "${name}": ${headers.reason}`);
  const definition: Tool = {
    name,
    ...(config.title !== undefined && { title: config.title }),
    ...(config.description !== undefined && { description: config.description }),
    // server/tools: a tool without parameters accepts only an empty object.
    inputSchema: input?.jsonSchema ?? { type: "object", additionalProperties: false },
    ...(output && { outputSchema: output.jsonSchema }),
    ...(config.annotations && { annotations: config.annotations }),
    ...(config.icons && { icons: config.icons }),
    ...(config._meta && { _meta: config._meta }),
  };
  const task = typeof config.task === "string" ? { support: config.task } : config.task;
  // 2025-11-25 lists it (execution.taskSupport); encodeDescriptor drops it elsewhere.
  if (task && task.support !== "forbidden") definition.execution = { taskSupport: task.support };
  return {
    key: name,
    enabled: config.enabled ?? true,
    definition,
    scopes: config.scopes,
    visible: config.visible,
    headerParams: headers.params,
    validateInput: input?.validate,
    validateOutput: output?.validate,
    handler,
    task: task && task.support !== "forbidden" ? task : undefined,
  };
}
