import type { McpServer } from "mcpkit/server";
import { structured } from "mcpkit/server";
import { z } from "zod";

/**
 * Fixtures for the clients that read this server (the inspector's forms and result views,
 * `mcpkit call`'s argument parsing): every kind of field a form is generated for, and a
 * result that breaks its own outputSchema.
 */

/** One field of each kind: formats, bounds, enums, nullable, defaults, arrays, a nested object. */
const FORM_FIELDS = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 2, description: "What to call you" },
    age: { type: "integer", minimum: 0, maximum: 150 },
    ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    subscribed: { type: "boolean", default: true },
    color: { type: "string", enum: ["red", "green", "blue"] },
    size: {
      type: "string",
      oneOf: [
        { const: "s", title: "Small" },
        { const: "m", title: "Medium" },
        { const: "l", title: "Large" },
      ],
      default: "m",
    },
    birthday: { type: "string", format: "date" },
    alarm: { type: "string", format: "time" },
    startsAt: { type: "string", format: "date-time" },
    email: { type: "string", format: "email" },
    homepage: { type: "string", format: "uri" },
    code: { type: "string", pattern: "[A-Z]{3}-\\d+", description: "Three capitals, a dash, digits" },
    nickname: { type: ["string", "null"] },
    tags: { type: "array", items: { type: "string" } },
    address: {
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
      required: ["street", "city"],
    },
    contacts: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, phone: { type: "string" } },
        required: ["name"],
      },
    },
    retries: { type: "integer", default: 3 },
  },
  required: ["name", "age"],
  additionalProperties: false,
} as const;

const MISMATCH = "test_output_schema_mismatch";

export function registerClientChecks(server: McpServer): void {
  server.tool(
    "test_form_fields",
    {
      description: "Takes one field of each kind a form can have, and returns the arguments as it got them",
      input: FORM_FIELDS,
    },
    (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }], structuredContent: args }),
  );

  server.tool(
    MISMATCH,
    {
      description:
        "Declares an outputSchema ({ count: integer }) that its result breaks, as a server that skips its own check would",
      output: z.object({ count: z.number().int() }),
    },
    () => structured({ count: 3 }),
  );
  // The server checks a result against its outputSchema before it leaves (handlers/tools.ts);
  // the broken one is made after that check, on its way out.
  server.use(async (ctx, next) => {
    const result = await next();
    // Only where the revision has structured output (2025-06-18 on): before it, the field does not exist.
    if (ctx.method !== "tools/call" || ctx.params?.name !== MISMATCH || !("structuredContent" in result)) return result;
    return { ...result, content: [{ type: "text", text: '{"count":"three"}' }], structuredContent: { count: "three" } };
  });
}
