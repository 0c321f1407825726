import { createServer, type McpServer, structured } from "mcpkit/server";
import { LINT_RULES, type LintProblem, lint } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";

// lint(server) reads a server's lists as a client connected in memory reads them, raw, and
// applies every rule. What the library refuses to register (a "/" in a tool name, two tools
// of one name) a broken server still sends: middleware that answers a list in the
// handler's place stands for it here.

/** A server with one good tool, one prompt and one resource: nothing to report. */
function cleanServer(): McpServer {
  // A failing handler is what some tests are about: not news for stderr.
  const server = createServer({ name: "clean", version: "1.0.0", onError: () => {} });
  server.tool(
    "add",
    {
      description: "Adds two numbers",
      input: z.object({ a: z.number(), b: z.number() }),
      output: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => structured({ sum: a + b }),
  );
  server.prompt("review", { description: "Reviews code", args: { code: { required: true } } }, ({ code }) => code);
  server.resource("docs://readme", { name: "readme", description: "The readme" }, () => "# Hi");
  server.resourceTemplate("docs://{page}", { name: "page", description: "A page", list: () => [] }, () => "");
  return server;
}

/** A server whose list answers are replaced: what a broken server (not mcpkit's) sends. */
function serverSending(
  lists: Partial<Record<"tools/list" | "prompts/list" | "resources/list" | "resources/templates/list", object>>,
): McpServer {
  const server = cleanServer();
  server.use(async (ctx, next) => {
    const answer = lists[ctx.method as keyof typeof lists];
    return answer ?? next();
  });
  return server;
}

const rulesOf = (problems: LintProblem[]) => problems.map((p) => `${p.severity} ${p.rule} ${p.target}`);
const tool = (name: string, extra: object = {}) => ({
  name,
  description: "d",
  inputSchema: { type: "object" },
  ...extra,
});

describe("lint(server)", () => {
  it("finds nothing in a clean server", async () => {
    expect(await lint(cleanServer())).toEqual([]);
  });

  it("tool-name: characters outside A–Z a–z 0–9 _ - ., an empty name, more than 128 characters", async () => {
    const problems = await lint(
      serverSending({
        "tools/list": {
          tools: [tool("files/read"), tool("has space"), tool(""), tool("x".repeat(129)), tool("ok.name_v-2")],
        },
      }),
    );
    expect(rulesOf(problems)).toEqual([
      "error tool-name tool:files/read",
      "error tool-name tool:has space",
      "error tool-name tool:#3",
      `error tool-name tool:${"x".repeat(129)}`,
    ]);
    expect(problems[0]?.message).toBe('The tool name "files/read" breaks the spec\'s tool names: "/" not allowed');
    expect(problems[2]?.message).toContain("it is empty");
    expect(problems[3]?.message).toContain("it is 129 characters long (at most 128)");
    expect(problems[0]?.fix).toMatch(/model APIs/);
  });

  it("duplicate-tool: two tools with one name", async () => {
    const problems = await lint(serverSending({ "tools/list": { tools: [tool("add"), tool("add"), tool("sub")] } }));
    expect(rulesOf(problems)).toEqual(["error duplicate-tool tool:add"]);
    expect(problems[0]?.message).toBe('2 tools are named "add"');
  });

  it("tool-input-schema and tool-output-schema: invalid under 2020-12, nested subschemas included, or not type object", async () => {
    const problems = await lint(
      serverSending({
        "tools/list": {
          tools: [
            tool("nested", {
              inputSchema: { type: "object", properties: { a: { type: "array", items: { minimum: "0" } } } },
            }),
            tool("array", { inputSchema: { type: "array" } }),
            tool("missing", { inputSchema: undefined }),
            tool("ref", { inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/nowhere" } } } }),
            tool("out", { outputSchema: { type: "object", required: "sum" } }),
            tool("draft7", {
              inputSchema: {
                $schema: "http://json-schema.org/draft-07/schema#",
                type: "object",
                properties: { a: { type: "strin" } },
              },
            }),
          ],
        },
      }),
    );
    expect(rulesOf(problems)).toEqual([
      "error tool-input-schema tool:nested",
      "error tool-input-schema tool:array",
      "error tool-input-schema tool:missing",
      "error tool-input-schema tool:ref",
      "error tool-input-schema tool:draft7",
      "error tool-output-schema tool:out",
    ]);
    const [nested, array, missing, ref, draft7, out] = problems.map((p) => p.message);
    expect(nested).toBe(
      "The inputSchema is not valid JSON Schema 2020-12: /properties/a/items/minimum: must be number",
    );
    expect(array).toBe('The inputSchema describes type "array", not type "object"');
    expect(missing).toBe("The tool has no inputSchema (it is required)");
    expect(ref).toContain("can't resolve reference #/$defs/nowhere");
    expect(draft7).toContain(
      "not valid JSON Schema draft-07: /properties/a/type: must be equal to one of the allowed values",
    );
    expect(out).toBe("The outputSchema is not valid JSON Schema 2020-12: /required: must be array");
  });

  it("a schema nested too deeply to check is a problem, not a crash", async () => {
    let deep: object = { type: "object" };
    for (let i = 0; i < 1000; i++) deep = { type: "object", properties: { a: deep } };
    const problems = await lint(serverSending({ "tools/list": { tools: [tool("deep", { inputSchema: deep })] } }));
    expect(rulesOf(problems)).toEqual(["error tool-input-schema tool:deep"]);
    expect(problems[0]?.message).toBe(
      "The inputSchema is not valid JSON Schema 2020-12: it is nested too deeply to check, as a client's validator would be (Maximum call stack size exceeded)",
    );
  });

  it("schema-dialect: a $schema clients need not support is a warning, and is not checked", async () => {
    const problems = await lint(
      serverSending({
        "tools/list": {
          tools: [tool("old", { inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" } })],
        },
      }),
    );
    expect(rulesOf(problems)).toEqual(["warning schema-dialect tool:old"]);
  });

  it("tool-shape: fields of the wrong type, which make a strict client drop the list", async () => {
    const problems = await lint(
      serverSending({
        "tools/list": {
          tools: [
            tool("a", { annotations: { readOnlyHint: "yes" }, title: 3 }),
            tool("b", { execution: { taskSupport: "sometimes" } }),
            "not a tool",
          ],
        },
      }),
    );
    expect(rulesOf(problems)).toEqual([
      "error tool-shape tool:a",
      "error tool-shape tool:b",
      "error tool-shape tool:#3",
    ]);
    expect(problems[0]?.message).toBe('title is 3, not a string; annotations.readOnlyHint is "yes", not true or false');
  });

  it("structured-content and tool-call: the calls asked for are checked against the outputSchema", async () => {
    const server = cleanServer();
    server.tool(
      "count",
      {
        description: "Counts",
        input: z.object({ bad: z.boolean().optional(), plain: z.boolean().optional() }),
        output: z.object({ n: z.number() }),
      },
      () => structured({ n: 1 }),
    );
    // mcpkit checks structuredContent before it sends it: a server that does not is stood for by middleware.
    server.use(async (ctx, next) => {
      const result = await next();
      const args = (ctx.params as { arguments?: { bad?: boolean; plain?: boolean } } | undefined)?.arguments;
      if (ctx.method === "tools/call" && args?.bad)
        return { content: [{ type: "text", text: "one" }], structuredContent: { n: "one" } };
      if (ctx.method === "tools/call" && args?.plain) return { content: [{ type: "text", text: "one" }] };
      return result;
    });
    const problems = await lint(server, {
      calls: [
        { name: "count", arguments: { bad: true } },
        { name: "count", arguments: { plain: true } },
        { name: "count", arguments: { bad: false } },
        { name: "add", arguments: { a: 1, b: 2 } },
        { name: "nope" },
      ],
    });
    expect(rulesOf(problems)).toEqual([
      "error tool-call tool:nope",
      "error structured-content tool:count",
      "error structured-content tool:count",
    ]);
    expect(problems[1]?.message).toBe("The structuredContent does not match the outputSchema: n: must be number");
    expect(problems[2]?.message).toBe("The tool declares an outputSchema, but its result has no structuredContent");
  });

  it("prompt-shape, duplicate-prompt: prompts without a name, arguments named twice or not at all", async () => {
    const problems = await lint(
      serverSending({
        "prompts/list": {
          prompts: [
            { name: "a", description: "d", arguments: [{ name: "x" }, { name: "x" }, { description: "no name" }] },
            { description: "no name" },
            { name: "b", description: "d" },
            { name: "b", description: "d" },
          ],
        },
      }),
    );
    expect(rulesOf(problems)).toEqual([
      "error prompt-shape prompt:a",
      "error prompt-shape prompt:#2",
      "error duplicate-prompt prompt:b",
    ]);
    expect(problems[0]?.message).toBe('two arguments are named "x"; argument 3 has no name');
  });

  it("resource-shape, template-shape, duplicate-resource: URIs that are not absolute, bad templates, a URI twice", async () => {
    const problems = await lint(
      serverSending({
        "resources/list": {
          resources: [
            { uri: "readme.md", name: "readme", description: "d" },
            { uri: "docs://a", description: "d", size: -1 },
            { uri: "docs://b", name: "b", description: "d" },
            { uri: "docs://b", name: "b2", description: "d" },
          ],
        },
        "resources/templates/list": {
          resourceTemplates: [
            { uriTemplate: "docs://{unclosed", name: "t", description: "d" },
            { uriTemplate: "{path}", name: "t2", description: "d" },
          ],
        },
      }),
    );
    expect(rulesOf(problems)).toEqual([
      "error resource-shape resource:readme.md",
      "error resource-shape resource:docs://a",
      "error template-shape template:docs://{unclosed",
      "error template-shape template:{path}",
      "error duplicate-resource resource:docs://b",
    ]);
    expect(problems[0]?.message).toBe('its uri "readme.md" is not an absolute URI');
    expect(problems[1]?.message).toBe("it has no name (a string is required); size is -1, not a whole number of bytes");
    expect(problems[3]?.message).toBe("its uriTemplate has no URI scheme");
  });

  it("missing-description: a tool, prompt, resource or template without one is a warning", async () => {
    const server = createServer({ name: "terse", version: "1.0.0" });
    server.tool("t", {}, () => "");
    server.prompt("p", {}, () => "");
    server.resource("docs://r", { name: "r" }, () => "");
    server.resourceTemplate("docs://{x}", { name: "x", list: () => [] }, () => "");
    expect(rulesOf(await lint(server))).toEqual([
      "warning missing-description tool:t",
      "warning missing-description prompt:p",
      "warning missing-description resource:docs://r",
      "warning missing-description template:docs://{x}",
    ]);
  });

  it("tool-annotations: readOnlyHint with destructiveHint, or with idempotentHint false", async () => {
    const server = createServer({ name: "s", version: "1.0.0" });
    server.tool("wipe", { description: "d", annotations: { readOnlyHint: true, destructiveHint: true } }, () => "");
    server.tool("peek", { description: "d", annotations: { readOnlyHint: true, idempotentHint: false } }, () => "");
    server.tool("fine", { description: "d", annotations: { readOnlyHint: false, destructiveHint: true } }, () => "");
    const problems = await lint(server);
    expect(rulesOf(problems)).toEqual(["warning tool-annotations tool:peek", "warning tool-annotations tool:wipe"]);
    expect(problems[1]?.message).toBe(
      "readOnlyHint: true contradicts destructiveHint: true (a read-only tool destroys nothing)",
    );
  });

  it("tools-list-size: over 100 KB by default, or the limit given; bytes and estimated tokens shown", async () => {
    const server = createServer({ name: "big", version: "1.0.0", toolCatalog: false });
    for (let i = 0; i < 60; i++) server.tool(`tool_${i}`, { description: "x".repeat(2000) }, () => "");
    const problems = await lint(server);
    expect(rulesOf(problems)).toEqual(["warning tools-list-size server"]);
    expect(problems[0]?.message).toMatch(/^tools\/list is 12\d,\d{3} bytes \(about 3\d,\d{3} tokens\), over 100,000/);
    expect(await lint(server, { maxListBytes: 1_000_000 })).toEqual([]);
  });

  it("list-failed: a declared list that errors, and cursors that never end", async () => {
    const server = cleanServer();
    server.use(async (ctx, next) => {
      if (ctx.method === "prompts/list") throw new Error("boom");
      if (ctx.method === "resources/list") return { resources: [], nextCursor: "again" };
      return next();
    });
    const problems = await lint(server);
    expect(rulesOf(problems)).toEqual(["error list-failed server", "error list-failed server"]);
    expect(problems[0]?.message).toBe("prompts/list failed: Internal error");
    expect(problems[1]?.message).toBe(
      'resources/list failed: nextCursor "again" came back a second time: the pages never end',
    );
  });

  it("every rule is data: an id, a severity, what it checks and how to fix it", () => {
    expect(new Set(LINT_RULES.map((r) => r.id)).size).toBe(LINT_RULES.length);
    for (const rule of LINT_RULES) {
      expect(rule.id).toMatch(/^[a-z-]+$/);
      expect(["error", "warning"]).toContain(rule.severity);
      expect(rule.summary.length).toBeGreaterThan(10);
      expect(rule.fix.length).toBeGreaterThan(10);
    }
  });
});
