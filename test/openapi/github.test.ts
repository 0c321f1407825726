import { join } from "node:path";
import { loadOpenApiDocument, type OpenApiDocument, openApiServer } from "mcpkit/openapi";
import { connectInMemory } from "mcpkit/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { testPackageDir } from "../../scripts/test-packages.mjs";
import { schemaFor } from "../revisions/schema-check.js";
import queries from "./fixtures/github-queries.json" with { type: "json" };

// GitHub's REST description (@octokit/openapi, OpenAPI 3.0, about 1,200 operations) at
// scale: every operation a valid tool, tools/list with and without the catalog, and how
// well search_tools finds the right operation for 50 requests written from descriptions.

let document: OpenApiDocument;
beforeAll(async () => {
  // Installed on first use (scripts/test-packages.mjs): ~390 MB no clone needs to start.
  const github = join(testPackageDir("@octokit/openapi"), "generated/api.github.com.json");
  document = await loadOpenApiDocument(github);
}, 600_000);

const serve = (toolCatalog?: false) =>
  openApiServer({
    document,
    baseUrl: "https://api.github.com",
    ...(toolCatalog === false && { server: { toolCatalog } }),
  });

describe("GitHub's REST API as tools", () => {
  it("makes every operation a tool that is valid against the 2025-11-25 schema, its schemas valid JSON Schema 2020-12", async () => {
    const server = await serve(false);
    const operations = Object.values(document.paths ?? {}).flatMap((item) =>
      ["get", "put", "post", "delete", "options", "head", "patch", "trace"].filter((m) => item?.[m]),
    );
    expect(server.openapi.tools.length).toBe(operations.length);
    expect(operations.length).toBeGreaterThan(1000);
    const { client, close } = await connectInMemory(server);
    const tools = await client.tools();
    expect(tools).toHaveLength(operations.length);
    const revision = schemaFor("2025-11-25");
    const Ajv2020 = require("ajv/dist/2020").default;
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const problems: string[] = [];
    for (const tool of tools) {
      const errors = revision.validate("Tool", tool);
      if (errors.length) problems.push(`${tool.name}: ${errors.join("; ")}`);
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        if (schema === undefined) continue;
        if (!ajv.validateSchema(schema)) problems.push(`${tool.name}: ${ajv.errorsText(ajv.errors)}`);
        for (const ref of JSON.stringify(schema).matchAll(/"\$ref":"([^"]*)"/g)) {
          const name = /^#\/\$defs\/(.+)$/.exec(ref[1] as string)?.[1];
          if (!name || !(schema as { $defs?: object }).$defs || !(name in (schema as { $defs: object }).$defs))
            problems.push(`${tool.name}: dangling ${ref[1]}`);
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    await close();
  }, 120_000);

  it("lists two tools instead of the whole catalog by default, in a small fraction of the bytes", async () => {
    const full = await connectInMemory(await serve(false));
    const fullBytes = JSON.stringify(await full.client.listTools()).length;
    await full.close();
    const { client, close } = await connectInMemory(await serve());
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(["search_tools", "call_tool"]);
    expect(JSON.stringify(listed).length).toBeLessThan(fullBytes / 1000);
    await close();
  }, 120_000);

  it("finds the right operation for 50 requests written from descriptions: most at rank 1, nearly all in the top 5", async () => {
    const server = await serve();
    const nameOf = new Map(server.openapi.tools.map((t) => [t.operationId, t.name]));
    const { client, close } = await connectInMemory(server);
    const ranks: number[] = [];
    for (const { operationId, query } of queries.queries) {
      const result = await client.callTool("search_tools", { query, limit: 50 });
      const names = (result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
      ranks.push(names.indexOf(nameOf.get(operationId) as string) + 1);
    }
    const top1 = ranks.filter((r) => r === 1).length;
    const top5 = ranks.filter((r) => r >= 1 && r <= 5).length;
    // docs/openapi.md reports 32/50 and 43/50 (bench/openapi.mjs measures them): a change
    // to the ranking that loses more than a little of that fails here.
    expect(top1, `ranks ${ranks.join(",")}`).toBeGreaterThanOrEqual(30);
    expect(top5, `ranks ${ranks.join(",")}`).toBeGreaterThanOrEqual(41);
    await close();
  }, 120_000);
});
