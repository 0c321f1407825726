import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addOpenApiTools, loadOpenApiDocument, openApiServer } from "mcpkit/openapi";
import { createServer as createMcpServer } from "mcpkit/server";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A hostile document costs what its size says, not more: references are kept as $defs
// instead of being copied (a 2.8 KB document of nested references once became a 495 MB
// inputSchema), a tool's schema has a cap that names itself and the operation, YAML aliases
// are expanded within a bound (a 1 KB alias bomb once kept the loader at 100 % CPU for
// minutes), and `validate`, which expands every reference, refuses what would explode.

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;

/** `levels` schemas, each with `fan` properties referring to the next: fan^levels leaves if inlined. */
function nestedReferences(levels: number, fan: number) {
  const schemas: Record<string, object> = {};
  for (let i = 0; i < levels; i++) {
    const properties: Record<string, object> = {};
    for (let j = 0; j < fan; j++)
      properties[`p${j}`] = i === levels - 1 ? { type: "string" } : { $ref: `#/components/schemas/S${i + 1}` };
    schemas[`S${i}`] = { type: "object", properties };
  }
  return {
    openapi: "3.1.0",
    info: { title: "nested", version: "1" },
    paths: {
      "/x": {
        post: {
          operationId: "x",
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/S0" } } } },
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/S0" } } },
            },
          },
        },
      },
    },
    components: { schemas },
  };
}

const dir = mkdtempSync(join(tmpdir(), "mcpkit-openapi-bounds-"));
/** A billion-laughs YAML document: 12 levels of anchors, each aliasing the one before 9 times. */
function aliasBomb(): string {
  let text =
    'openapi: 3.0.3\ninfo: {title: bomb, version: "1"}\npaths: {}\nx-l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  for (let i = 1; i < 12; i++) text += `x-l${i}: &l${i} [${new Array(9).fill(`*l${i - 1}`).join(", ")}]\n`;
  return text;
}

let files: Server;
let filesUrl = "";
beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === "/bomb.yaml") return res.writeHead(200, { "content-type": "application/yaml" }).end(aliasBomb());
    // An API that answers with what it was sent, for the document's patterns to meet.
    if (req.url?.startsWith("/echo?"))
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ s: new URL(req.url, "http://x").searchParams.get("q") }));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(() => {
  files.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("references", () => {
  it("keeps a 2.8 KB document of nested references small: each schema once, in $defs, and still exact", async () => {
    const document = nestedReferences(11, 5);
    expect(JSON.stringify(document).length).toBeLessThan(3000);
    const server = await openApiServer({ document, baseUrl: "http://127.0.0.1:9" });
    const { client, close } = await connectInMemory(server);
    const listed = await client.listTools();
    // 5^10 leaves when inlined (the 495 MB of before); a few kilobytes as definitions.
    expect(JSON.stringify(listed).length).toBeLessThan(10_000);
    const [tool] = listed.tools;
    const input = tool?.inputSchema as { properties: { body: object }; $defs: Record<string, object> };
    expect(Object.keys(input.$defs).sort()).toEqual(["S1", "S10", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9"]);
    expect(input.properties.body).toEqual({
      type: "object",
      properties: Object.fromEntries([0, 1, 2, 3, 4].map((j) => [`p${j}`, { $ref: "#/$defs/S1" }])),
    });
    // The definitions say what the inlined copies said: a string ten levels down, nothing else.
    const validate = new Ajv2020({ strict: false }).compile(input);
    let deep: unknown = "leaf";
    for (let i = 0; i < 11; i++) deep = { p3: deep };
    expect(validate({ body: deep })).toBe(true);
    let wrong: unknown = 42;
    for (let i = 0; i < 11; i++) wrong = { p3: wrong };
    expect(validate({ body: wrong })).toBe(false);
    await close();
  });

  it("puts a schema used once in its place, and one used twice or recursively in $defs", async () => {
    const document = {
      openapi: "3.0.3",
      info: { title: "shapes", version: "1" },
      paths: {
        "/order": {
          post: {
            operationId: "order",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      billing: { $ref: "#/components/schemas/Address" },
                      shipping: { $ref: "#/components/schemas/Address" },
                      note: { $ref: "#/components/schemas/Note" },
                      category: { $ref: "#/components/schemas/Category" },
                    },
                  },
                },
              },
            },
            responses: { "204": { description: "ok" } },
          },
        },
      },
      components: {
        schemas: {
          Address: { type: "object", properties: { city: { type: "string" } } },
          Note: { type: "string", maxLength: 100 },
          Category: { type: "object", properties: { parent: { $ref: "#/components/schemas/Category" } } },
        },
      },
    };
    const server = await openApiServer({ document, baseUrl: "http://127.0.0.1:9" });
    const { client, close } = await connectInMemory(server);
    const [tool] = (await client.listTools()).tools;
    const input = tool?.inputSchema as { properties: { body: { properties: object } }; $defs: object };
    expect(input.properties.body.properties).toEqual({
      billing: { $ref: "#/$defs/Address" },
      shipping: { $ref: "#/$defs/Address" },
      note: { type: "string", maxLength: 100 },
      category: { $ref: "#/$defs/Category" },
    });
    expect(input.$defs).toEqual({
      Address: { type: "object", properties: { city: { type: "string" } } },
      Category: { type: "object", properties: { parent: { $ref: "#/$defs/Category" } } },
    });
    await close();
  });

  it("refuses a tool schema over maxSchemaBytes, naming the cap and the operation", async () => {
    const big = (values: number) => ({
      openapi: "3.0.3",
      info: { title: "big", version: "1" },
      paths: {
        "/big": {
          get: {
            operationId: "big",
            parameters: [
              {
                name: "pick",
                in: "query",
                schema: { type: "string", enum: Array.from({ length: values }, (_, i) => `value-${i}`) },
              },
            ],
            responses: { "204": { description: "ok" } },
          },
        },
      },
    });
    await expect(
      openApiServer({ document: big(2000), baseUrl: "http://127.0.0.1:9", maxSchemaBytes: 10_000 }),
    ).rejects.toThrow(/^The inputSchema of GET \/big \(tool big\) is \d+ bytes of JSON, over maxSchemaBytes \(10000\)/);
    // The default, 1 MiB.
    await expect(openApiServer({ document: big(100_000), baseUrl: "http://127.0.0.1:9" })).rejects.toThrow(
      "over maxSchemaBytes (1048576)",
    );
    await expect(openApiServer({ document: big(2000), baseUrl: "http://127.0.0.1:9" })).resolves.toBeDefined();
    // Added to a server of yours: a refused document registers none of its tools.
    const mine = createMcpServer({ name: "mine", version: "1" });
    const document = big(2000);
    const small = { get: { operationId: "small", responses: { "204": { description: "ok" } } } };
    const withSmallFirst = { ...document, paths: { "/small": small, ...document.paths } };
    await expect(
      addOpenApiTools(mine, { document: withSmallFirst, baseUrl: "http://127.0.0.1:9", maxSchemaBytes: 10_000 }),
    ).rejects.toThrow("(tool big)");
    expect(mine.definitions().tools).toEqual([]);
  });

  it("refuses tools that together pass maxToolsBytes: a 700 KB document of 1,100 operations sharing one schema once listed 550 MB", async () => {
    /** `operations` operations whose request bodies share one schema of `size` bytes. */
    const shared = (operations: number, size: number) => {
      const paths: Record<string, object> = {};
      for (let i = 0; i < operations; i++)
        paths[`/p${i}`] = {
          post: {
            operationId: `op${i}`,
            requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Big" } } } },
            responses: { "204": { description: "ok" } },
          },
        };
      const Big = { type: "object", description: "x".repeat(size), properties: { a: { type: "string" } } };
      return { openapi: "3.1.0", info: { title: "shared", version: "1" }, paths, components: { schemas: { Big } } };
    };
    const document = shared(1100, 500_000);
    expect(JSON.stringify(document).length).toBeLessThan(700_000);
    await expect(openApiServer({ document, baseUrl: "http://127.0.0.1:9" })).rejects.toThrow(
      /^The tools of this document reach \d+ bytes of schemas and descriptions at POST \/p67 \(tool op67\), over maxToolsBytes \(33554432\): serve fewer operations/,
    );
    // Raised, or under it, the same document serves.
    const few = await openApiServer({ document: shared(20, 500_000), baseUrl: "http://127.0.0.1:9" });
    expect(few.openapi.tools).toHaveLength(20);
    await expect(
      openApiServer({ document: shared(20, 500_000), baseUrl: "http://127.0.0.1:9", maxToolsBytes: 5_000_000 }),
    ).rejects.toThrow("over maxToolsBytes (5000000)");
  });

  it("refuses to validate a document whose references would expand beyond the bound", async () => {
    await expect(loadOpenApiDocument(nestedReferences(11, 5), { validate: true })).rejects.toThrow(
      "expands to more than 10000000 JSON values; load it without validate",
    );
    await expect(loadOpenApiDocument(nestedReferences(4, 3), { validate: true })).resolves.toBeDefined();
  });
});

describe("YAML", () => {
  it("refuses a 1 KB alias bomb on disk, naming the bound", async () => {
    const file = join(dir, "bomb.yaml");
    writeFileSync(file, aliasBomb());
    expect(aliasBomb().length).toBeLessThan(1100);
    await expect(loadOpenApiDocument(file)).rejects.toThrow(
      `Cannot load ${file}: ${file}: its YAML aliases expand beyond the bound (100 expansions)`,
    );
  });

  it("refuses the same bomb named by URL", async () => {
    await expect(loadOpenApiDocument(`${filesUrl}/bomb.yaml`)).rejects.toThrow(
      "its YAML aliases expand beyond the bound (100 expansions)",
    );
  });

  it("reads a mapping of 40,000 keys in linear time (the yaml package's own check of unique keys took their square), and still refuses a repeated key", async () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `  k${i}: v`);
    const file = join(dir, "wide.yaml");
    writeFileSync(
      file,
      ["openapi: 3.0.3", 'info: {title: wide, version: "1"}', "paths: {}", "x-wide:", ...keys].join("\n"),
    );
    const started = performance.now();
    const document = await loadOpenApiDocument(file);
    // About 2 s on a loaded machine; comparing each key with those before it, over 30 s.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(Object.keys(document["x-wide"] as object)).toHaveLength(40_000);
    const repeated = join(dir, "repeated.yaml");
    writeFileSync(
      repeated,
      ["openapi: 3.0.3", 'info: {title: r, version: "1"}', "paths: {}", "x-a: 1", "x-a: 2"].join("\n"),
    );
    await expect(loadOpenApiDocument(repeated)).rejects.toThrow(
      'is not valid YAML: Map keys must be unique: "x-a" is repeated at line 5, column 1',
    );
  });

  it("still reads the anchors and aliases documents use in moderation", async () => {
    const file = join(dir, "anchors.yaml");
    writeFileSync(
      file,
      [
        "openapi: 3.0.3",
        'info: {title: anchors, version: "1"}',
        "paths:",
        "  /a:",
        "    get:",
        "      operationId: a",
        "      responses: &ok {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}",
        "  /b:",
        "    get:",
        "      operationId: b",
        "      responses: *ok",
      ].join("\n"),
    );
    const server = await openApiServer({ document: file, baseUrl: "http://127.0.0.1:9" });
    expect(server.openapi.tools.map((t) => t.name)).toEqual(["a", "b"]);
  });
});

describe("patterns", () => {
  it("never runs the document's patterns on the client's arguments or the API's answers (ReDoS), and says them", async () => {
    // A backtracking engine takes hours for "^(a+)+$" against 40 a's and a "!".
    const pattern = "^(a+)+$";
    const document = {
      openapi: "3.1.0",
      info: { title: "patterns", version: "1" },
      paths: {
        "/echo": {
          get: {
            operationId: "echo",
            parameters: [{ name: "q", in: "query", required: true, schema: { type: "string", pattern } }],
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: { s: { type: "string", pattern } },
                      patternProperties: { [pattern]: { type: "number" } },
                      additionalProperties: false,
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    const server = await openApiServer({ document, baseUrl: filesUrl });
    const { client, close } = await connectInMemory(server);
    const [tool] = (await client.listTools()).tools;
    if (!tool) throw new Error("no tool");
    expect(JSON.stringify(tool)).not.toContain('"pattern"');
    expect((tool.inputSchema as { properties: { q: object } }).properties.q).toEqual({
      type: "string",
      description: `Pattern: ${pattern}`,
    });
    const started = performance.now();
    const result = await client.callTool("echo", { q: `${"a".repeat(40)}!` });
    expect(result.structuredContent).toEqual({ s: `${"a".repeat(40)}!` });
    expect(performance.now() - started).toBeLessThan(2000);
    await close();
  });
});
