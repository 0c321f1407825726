import { deref, type OpenApiDocument, type Response, type SchemaObject } from "./document.js";
import type { SchemaRun } from "./json-schema.js";
import type { OperationInfo } from "./operations.js";

/** The tool's outputSchema, and whether a JSON answer travels under `result` (a tool's output is an object). */
export interface OutputPlan {
  schema: SchemaObject;
  wrapped: boolean;
}

const isJson = (type: string) => /^application\/(.+\+)?json$/i.test(type.split(";")[0]?.trim() ?? "");

/**
 * The outputSchema from the JSON success responses (server/tools §Output Schema): only
 * when every documented 2xx answer is JSON with a schema (an empty 204 could not carry
 * structuredContent). Several different ones become `anyOf`. A schema that is not a plain
 * object is wrapped as `{ result }`.
 */
export function planOutput(info: OperationInfo, document: OpenApiDocument, run: SchemaRun): OutputPlan | undefined {
  const success = Object.entries(info.operation.responses ?? {}).filter(([code]) => /^2(\d\d|XX)$/i.test(code));
  if (success.length === 0) return undefined;
  const schemas: unknown[] = [];
  for (const [, raw] of success) {
    const response = deref<Response>(document, raw);
    const json = Object.entries(response?.content ?? {}).find(([type]) => isJson(type));
    if (!json?.[1]?.schema) return undefined;
    if (!schemas.some((s) => s === json[1].schema)) schemas.push(json[1].schema);
  }
  const converted = schemas.map((s) => run.node(s));
  const schema = converted.length === 1 ? (converted[0] as SchemaObject) : { anyOf: converted };
  const wrapped = schema.type !== "object";
  const root: SchemaObject = wrapped
    ? { type: "object", properties: { result: schema }, required: ["result"] }
    : { ...schema };
  return { schema: run.finish(root), wrapped };
}
