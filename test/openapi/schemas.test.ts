import { createRequire } from "node:module";
import { openApiServer } from "mcpkit/openapi";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningApi, startKitchen } from "./apis.js";

// OpenAPI 3.0 schema quirks as a tool publishes them: 2020-12 forms, and nothing a
// validator could not compile (which would fail every call of the tool).

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

const document = {
  openapi: "3.0.3",
  info: { title: "Quirks", version: "1" },
  paths: {
    "/status/{code}": {
      post: {
        operationId: "quirks",
        parameters: [{ name: "code", in: "path", required: true, schema: { type: "integer" } }],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  slug: { type: "string", pattern: "^[\\w-.]+$" },
                  upload: { type: "file" },
                  size: { type: "number", minimum: 1, exclusiveMinimum: true, example: 2 },
                  color: { type: "string", enum: ["red", "blue"], nullable: true },
                  parent: { allOf: [{ $ref: "#/components/schemas/Node" }], nullable: true },
                },
              },
            },
          },
        },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    schemas: {
      Node: {
        type: "object",
        properties: { name: { type: "string" }, next: { $ref: "#/components/schemas/Node" } },
      },
    },
  },
};

let api: RunningApi;
beforeAll(async () => {
  api = await startKitchen();
});
afterAll(() => api.close());

it("publishes 2020-12 forms of 3.0 keywords, drops what cannot compile, and the tool still calls the API", async () => {
  const server = await openApiServer({ document, baseUrl: api.url });
  const { client, close } = await connectInMemory(server);
  const [tool] = (await client.listTools()).tools;
  const schema = tool?.inputSchema as { properties: { body: { properties: Record<string, object> } }; $defs?: object };
  const body = schema.properties.body.properties;
  // A pattern is said, never run (a document's pattern could stall a backtracking engine).
  expect(body.slug).toEqual({ type: "string", description: "Pattern: ^[\\w-.]+$" });
  expect(body.upload).toEqual({}); // "file" is not a JSON type
  expect(body.size).toEqual({ type: "number", exclusiveMinimum: 1, examples: [2] });
  expect(body.color).toEqual({ type: ["string", "null"], enum: ["red", "blue", null] });
  // Node is recursive: a definition in $defs, referred to (never copied into its place).
  expect(body.parent).toEqual({ anyOf: [{ allOf: [{ $ref: "#/$defs/Node" }] }, { type: "null" }] });
  expect(schema.$defs).toEqual({
    Node: { type: "object", properties: { name: { type: "string" }, next: { $ref: "#/$defs/Node" } } },
  });
  expect(new Ajv2020({ strict: false }).validateSchema(schema)).toBe(true);
  const result = await client.callTool("quirks", { code: 200, body: { slug: "a-b", size: 2, color: null } });
  expect(result.isError).toBeFalsy();
  expect(api.received.at(-1)).toMatchObject({ method: "POST", url: "/status/200" });
  await close();
});
