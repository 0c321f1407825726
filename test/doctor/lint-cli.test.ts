import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpkit, requireBuild } from "../cli-call/helpers.js";
import { FIXTURES } from "./helpers.js";

// `mcpkit lint` against live servers: a clean one, and a raw one (written without mcpkit,
// which would refuse to register most of it) that breaks a rule in each entry.

const node = process.execPath;
let dir: string;
let http: Listening;

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-lint-cli-"));
  // A 2025-11-25 server with sessions, over Streamable HTTP, whose entries lack descriptions.
  const server = createServer({ name: "terse", version: "1.0.0", revisions: ["2025-11-25"] });
  server.tool("ping", {}, () => "pong");
  server.tool("wipe", { description: "Wipes", annotations: { readOnlyHint: true, destructiveHint: true } }, () => "");
  http = await listen(createStreamableHttpHandler(server));
});
afterAll(async () => {
  await http.close();
  rmSync(dir, { recursive: true, force: true });
});

/** raw-server.mjs with this scenario, as the words after --. */
function raw(name: string, scenario: object): string[] {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return ["--", node, join(FIXTURES, "raw-server.mjs"), file];
}

const described = (name: string, extra: object = {}) => ({
  name,
  description: "d",
  inputSchema: { type: "object" },
  ...extra,
});

const BROKEN = {
  tools: [
    described("files/read"),
    described("dup"),
    described("dup"),
    described("nested", {
      inputSchema: { type: "object", properties: { a: { type: "array", items: { type: "strng" } } } },
    }),
    described("listy", { inputSchema: { type: "array" } }),
    described("out", { outputSchema: { type: "object", properties: { n: { minimum: "zero" } } } }),
    described("hinted", { annotations: { readOnlyHint: "yes" } }),
    described("contradiction", { annotations: { readOnlyHint: true, destructiveHint: true } }),
    described("old", { inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" } }),
    { name: "bare", inputSchema: { type: "object" } },
  ],
  prompts: [
    { name: "p", description: "d", arguments: [{ name: "x" }, { name: "x" }] },
    { name: "twice", description: "d" },
    { name: "twice", description: "d" },
  ],
  resources: [
    { uri: "readme.md", name: "readme", description: "d" },
    { uri: "docs://a", name: "a", description: "d" },
    { uri: "docs://a", name: "a2", description: "d" },
  ],
  resourceTemplates: [{ uriTemplate: "docs://{oops", name: "t", description: "d" }],
};

describe("mcpkit lint", () => {
  it("exits 0 with no problem for a clean server", async () => {
    const run = await mcpkit(["lint", "--json", "--", node, join(FIXTURES, "clean-server.mjs")]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ problems: [] });
  });

  it("reads the raw lists a strict client would drop, and reports a rule, a severity and a target per problem", async () => {
    const run = await mcpkit(["lint", "--json", ...raw("broken", BROKEN)]);
    expect(run.code).toBe(1);
    const { problems } = JSON.parse(run.stdout) as { problems: { rule: string; severity: string; target: string }[] };
    expect(problems.map((p) => `${p.severity} ${p.rule} ${p.target}`)).toEqual([
      "error tool-name tool:files/read",
      "error duplicate-tool tool:dup",
      "error tool-shape tool:hinted",
      "error tool-input-schema tool:nested",
      "error tool-input-schema tool:listy",
      "error tool-output-schema tool:out",
      "error prompt-shape prompt:p",
      "error duplicate-prompt prompt:twice",
      "error resource-shape resource:readme.md",
      "error template-shape template:docs://{oops",
      "error duplicate-resource resource:docs://a",
      "warning schema-dialect tool:old",
      "warning missing-description tool:bare",
      "warning tool-annotations tool:contradiction",
    ]);
    for (const problem of problems)
      expect(Object.keys(problem)).toEqual(["rule", "severity", "target", "message", "fix"]);
  });

  it("--call checks a result's structuredContent against its outputSchema", async () => {
    const scenario = {
      tools: [
        described("count", {
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        }),
      ],
      callResults: {
        count: { content: [{ type: "text", text: "one" }], structuredContent: { n: "one" } },
      },
    };
    const run = await mcpkit(["lint", "--json", "--call", 'count={"what":"apples"}', ...raw("calls", scenario)]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).problems).toEqual([
      expect.objectContaining({
        rule: "structured-content",
        severity: "error",
        target: "tool:count",
        message: "The structuredContent does not match the outputSchema: n: must be number",
      }),
    ]);
  });

  it("warnings alone exit 0: over HTTP (2025-11-25 sessions), in words for people, and --max-list-bytes", async () => {
    const url = new URL("/mcp", http.url).href;
    const run = await mcpkit(["lint", "--max-list-bytes", "100", url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`mcpkit lint: ${url}\n`);
    expect(run.stdout).toContain(
      "  ! warning tool:ping [missing-description]\n      The tool has no description\n      fix: Add a description",
    );
    expect(run.stdout).toContain("  ! warning tool:wipe [tool-annotations]\n");
    expect(run.stdout).toMatch(
      /! warning server \[tools-list-size\]\n {6}tools\/list is \d+ bytes \(about \d+ tokens\), over 100:/,
    );
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("0 errors, 3 warnings.");
  });

  it("a list that fails is an error of its own", async () => {
    const run = await mcpkit(["lint", "--json", ...raw("failing", { tools: "fail" })]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).problems).toEqual([
      expect.objectContaining({
        rule: "list-failed",
        target: "server",
        message: "tools/list failed: the database is offline",
      }),
    ]);
  });

  it("a server it cannot reach: exit 1, and mcpkit doctor to find why", async () => {
    const run = await mcpkit(["lint", "--json", "--", "mcpkit-no-such-server"]);
    expect(run.code).toBe(1);
    const [problem] = JSON.parse(run.stdout).problems;
    expect(problem).toMatchObject({ rule: "connection", severity: "error", target: "server" });
    expect(problem.message).toContain("Could not start mcpkit-no-such-server: not found on PATH");
    expect(problem.fix).toContain("Run mcpkit doctor with the same server");
  });

  it("a server that throws as it starts: what it threw is in the message, not only Node's stack frames", async () => {
    const run = await mcpkit(["lint", "--json", "--", node, join(FIXTURES, "throw-server.mjs")]);
    expect(run.code).toBe(1);
    const [problem] = JSON.parse(run.stdout).problems;
    expect(problem.message).toContain("its stderr ends:");
    expect(problem.message).toContain("Error: WEATHER_API_KEY is not set");
    expect(problem.message).toMatch(/at file:\/\/\S+throw-server\.mjs:3:7\n {4}… \d+ more stack frames/);
  });

  it.each([
    [["--call", "count={not json}"], "--call count=…: the arguments are not JSON"],
    [["--call", "count=[1]"], "--call count=…: the arguments must be a JSON object"],
    [["--call", "nope"], "--call nope: the server lists no tool of that name"],
    [["--max-list-bytes", "lots"], '--max-list-bytes must be a positive whole number, not "lots"'],
  ])("exits 2 on a usage mistake: %j", async (args, message) => {
    const run = await mcpkit(["lint", ...args, ...raw("usage", { tools: [described("count")] })]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
