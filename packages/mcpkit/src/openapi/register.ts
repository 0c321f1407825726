import { McpError } from "../jsonrpc/errors.js";
import type { CallToolResult, ToolAnnotations } from "../protocol/types/features.js";
import { compileJsonSchema, type Validator } from "../schema/validator.js";
import type { Context } from "../server/handler-context.js";
import type { Handle, McpServer } from "../server/mcp-server.js";
import { type ApiCredentials, documentKeyPlacement } from "./credentials.js";
import type { HttpMethod, OpenApiDocument } from "./document.js";
import { CallError, type CallLimits, send } from "./fetch.js";
import { planInput, type RequestPlan } from "./input.js";
import { SchemaConverter } from "./json-schema.js";
import { loadDocument } from "./load.js";
import { ToolNames } from "./names.js";
import type { OpenApiOptions } from "./openapi-options.js";
import { listOperations, type OperationInfo } from "./operations.js";
import { type OutputPlan, planOutput } from "./output.js";
import { redactor, redactResult } from "./redact.js";
import { buildRequest, type RequestSettings } from "./request.js";
import { toToolResult } from "./result.js";
import { ArgumentError } from "./serialize.js";

/** One operation served as a tool. */
export interface OpenApiTool {
  name: string;
  method: HttpMethod;
  path: string;
  operationId: string | undefined;
  handle: Handle;
}

export interface OpenApiTools {
  document: OpenApiDocument;
  tools: OpenApiTool[];
  /** Resource templates made from GET operations (options.resources). */
  templates: string[];
}

// server/tools §Tool Annotations, from the method's semantics (RFC 9110 §9.2).
const ANNOTATIONS: Record<HttpMethod, ToolAnnotations> = {
  get: { readOnlyHint: true, openWorldHint: true },
  head: { readOnlyHint: true, openWorldHint: true },
  options: { readOnlyHint: true, openWorldHint: true },
  trace: { readOnlyHint: true, openWorldHint: true },
  put: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  post: { readOnlyHint: false, openWorldHint: true },
  patch: { readOnlyHint: false, openWorldHint: true },
};

const isDocument = (value: unknown): value is OpenApiDocument =>
  typeof value === "object" && value !== null && !(value instanceof URL) && "openapi" in value;

/**
 * Registers one tool per operation of an OpenAPI document on `server`, each calling the
 * API at `options.baseUrl` (docs/openapi.md). A document object is bundled like a file,
 * so external references in it are resolved too.
 */
export async function addOpenApiTools(server: McpServer, options: OpenApiOptions): Promise<OpenApiTools> {
  const base = new URL(options.baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new TypeError(`baseUrl must be an http(s) URL, not ${base.protocol}`);
  if (base.search || base.hash || base.username || base.password)
    throw new TypeError("baseUrl must have no query, fragment or credentials (use options.credentials)");
  const source = options.document;
  const document = await loadDocument(isDocument(source) ? (source as Record<string, unknown>) : source, options);
  const settings: RequestSettings = {
    base,
    headers: options.headers ?? {},
    keyPlacement: documentKeyPlacement(document),
  };
  const limits: CallLimits = {
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 5 * 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
  };
  const caller = makeCaller(options, settings, limits);
  const converter = new SchemaConverter(document);
  const names = new ToolNames(options.names);
  const tools: OpenApiTool[] = [];
  const templates: string[] = [];
  const maxSchemaBytes = options.maxSchemaBytes ?? DEFAULT_MAX_SCHEMA_BYTES;
  const operations = listOperations(document, options.include, options.exclude);
  // Every tool planned (and its schemas' size checked) before any is registered: a refused
  // document leaves the server as it was.
  // Together too: one schema shared by every operation is in each tool's (a 700 KB document
  // of 1,100 operations once made a 550 MB tools/list).
  const maxToolsBytes = options.maxToolsBytes ?? DEFAULT_MAX_TOOLS_BYTES;
  let toolsBytes = 0;
  const planned = operations.map((info) => {
    const name = names.name(info.operation.operationId, info.method, info.path);
    const input = planInput(info, document, converter.run("request"));
    const output = options.outputSchemas === false ? undefined : planOutput(info, document, converter.run("response"));
    toolsBytes += checkSize("inputSchema", input.schema, info, name, maxSchemaBytes);
    if (output) toolsBytes += checkSize("outputSchema", output.schema, info, name, maxSchemaBytes);
    toolsBytes += Buffer.byteLength(describe(info));
    if (toolsBytes > maxToolsBytes)
      throw new Error(
        `The tools of this document reach ${toolsBytes} bytes of schemas and descriptions at ${info.method.toUpperCase()} ${info.path} (tool ${name}), over maxToolsBytes (${maxToolsBytes}): ` +
          "serve fewer operations (include, exclude) or raise maxToolsBytes",
      );
    return { info, name, input, output };
  });
  for (const { info, name, input, output } of planned) {
    let validate: Validator | undefined;
    const handle = server.tool(
      name,
      {
        ...(info.operation.summary !== undefined && { title: info.operation.summary }),
        description: describe(info),
        input: input.schema as never,
        ...(output && { output: output.schema as never }),
        annotations: { ...ANNOTATIONS[info.method], ...(info.operation.summary && { title: info.operation.summary }) },
      },
      async (args: Record<string, unknown>, ctx: Context) => {
        if (output) validate ??= compileJsonSchema(output.schema as never);
        return caller(input.plan, output, validate, args, ctx);
      },
    );
    tools.push({ name, method: info.method, path: info.path, operationId: info.operation.operationId, handle });
    const template = options.resources ? templateFor(info, input.plan, options.resources) : undefined;
    if (template) {
      server.resourceTemplate(
        template,
        { name, description: describe(info), mimeType: "application/json" },
        async (uri, variables, ctx) => {
          const result = await caller(input.plan, undefined, undefined, variables as Record<string, unknown>, ctx);
          const text = result.content?.[0]?.type === "text" ? result.content[0].text : "";
          // resources/read has no error result: a failed call is a JSON-RPC error with the API's answer.
          if (result.isError) throw new McpError(-32603, text, { uri });
          return { contents: [{ uri, mimeType: "application/json", text }] };
        },
      );
      templates.push(template);
    }
  }
  return { document, tools, templates };
}

const DEFAULT_MAX_SCHEMA_BYTES = 1024 * 1024;
/** Four times GitHub's 1,223 operations (8 MB). */
const DEFAULT_MAX_TOOLS_BYTES = 32 * 1024 * 1024;

/** A tool's schema past the cap is refused, naming the cap and the operation, before any client pays for it; its size otherwise. */
function checkSize(which: string, schema: object, info: OperationInfo, name: string, max: number): number {
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > max)
    throw new Error(
      `The ${which} of ${info.method.toUpperCase()} ${info.path} (tool ${name}) is ${bytes} bytes of JSON, over maxSchemaBytes (${max}): ` +
        "exclude the operation (exclude: { operations: [...] }) or raise maxSchemaBytes",
    );
  return bytes;
}

function describe(info: OperationInfo): string {
  const { summary, description } = info.operation;
  const parts = [summary, description].filter((p): p is string => typeof p === "string" && p.trim() !== "");
  const text = parts.length === 2 && parts[1]?.startsWith(parts[0] as string) ? [parts[1]] : parts;
  return text.join("\n\n") || `${info.method.toUpperCase()} ${info.path}`;
}

type Caller = (
  plan: RequestPlan,
  output: OutputPlan | undefined,
  validate: Validator | undefined,
  args: Record<string, unknown>,
  ctx: Context,
) => Promise<CallToolResult>;

function makeCaller(options: OpenApiOptions, settings: RequestSettings, limits: CallLimits): Caller {
  const fetchImpl = options.fetch ?? fetch;
  return async (plan, output, validate, args, ctx) => {
    const credentials: ApiCredentials | undefined =
      typeof options.credentials === "function" ? await options.credentials(ctx) : options.credentials;
    // What comes back to the client never holds the credentials (redact.ts).
    const redact = redactor(credentials, settings.headers);
    try {
      const request = buildRequest(plan, args, settings, credentials);
      const response = await send(fetchImpl, request, limits, ctx.signal, settings.base);
      return redactResult(await toToolResult(response, output, validate), redact);
    } catch (error) {
      if (error instanceof ArgumentError || error instanceof CallError)
        return { content: [{ type: "text", text: redact(error.message) }], isError: true };
      throw error;
    }
  };
}

/** `<scheme>://<path>{?query}` for a GET whose parameters are all path and query ones with template-safe names. */
function templateFor(info: OperationInfo, plan: RequestPlan, option: true | { scheme?: string }): string | undefined {
  if (info.method !== "get" || plan.body) return undefined;
  if (plan.params.some((p) => (p.in !== "path" && p.in !== "query") || !/^[A-Za-z0-9_]+$/.test(p.arg)))
    return undefined;
  const scheme = (option === true ? undefined : option.scheme) ?? "openapi";
  let path = info.path;
  for (const p of plan.params) if (p.in === "path") path = path.split(`{${p.name}}`).join(`{${p.arg}}`);
  const query = plan.params.filter((p) => p.in === "query").map((p) => p.arg);
  return `${scheme}://${path.replace(/^\//, "")}${query.length ? `{?${query.join(",")}}` : ""}`;
}
