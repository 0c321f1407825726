import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatReport } from "../../src/testing/runner/reporters.js";
import { runTests } from "../../src/testing/runner/run-tests.js";
import { testServer } from "./fixture-server.js";

// runTests against a server in this process: each expectation a test file can hold, once
// met and once not, with the failure it reports.

const dir = mkdtempSync(join(tmpdir(), "mcpkit-runner-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Runs one file of tests (YAML) against the fixture server; returns each test's failures by name. */
async function run(yaml: string, server = testServer()): Promise<Record<string, string[]>> {
  const path = join(dir, `t${++files}.mcptest.yaml`);
  writeFileSync(path, yaml);
  const report = await runTests(path, { server });
  return Object.fromEntries(report.files[0]?.tests.map((t) => [t.name, t.failures]) ?? []);
}

describe("expectations", () => {
  it("structuredContent, content and isError: deep subsets of the tool's result", async () => {
    const failures = await run(`
tests:
  - { name: sum, call: add, arguments: { a: 2, b: 3 }, expect: { structuredContent: { sum: 5 } } }
  - { name: wrong sum, call: add, arguments: { a: 2, b: 3 }, expect: { structuredContent: { sum: 6 } } }
  - { name: content, call: add, arguments: { a: 1, b: 1 }, expect: { content: [{ type: text }] } }
  - { name: content length, call: add, arguments: { a: 1, b: 1 }, expect: { content: [{ type: text }, { type: text }] } }
  - { name: isError, call: fail, expect: { isError: true } }
  - { name: isError wrong, call: add, arguments: { a: 1, b: 1 }, expect: { isError: true } }
`);
    expect(failures).toEqual({
      sum: [],
      "wrong sum": ["at /structuredContent/sum: expected 6, got 5"],
      content: [],
      "content length": ["at /content: expected 2 items, got 1"],
      isError: [],
      "isError wrong": [
        "expected an error (a JSON-RPC error or an isError result), got a result",
        "expected isError true, got false",
      ],
    });
  });

  it("error: a JSON-RPC error or an isError result; false, or a code and a message", async () => {
    const failures = await run(`
tests:
  - { name: unknown tool, call: nope, expect: { error: true } }
  - { name: isError counts, call: fail, expect: { error: true } }
  - { name: not an error, call: greet, arguments: { name: A }, expect: { error: true } }
  - { name: code, call: nope, expect: { error: { code: -32602 } } }
  - { name: wrong code, call: nope, expect: { error: { code: -32601 } } }
  - { name: message, call: fail, expect: { error: { message: disk is full } } }
  - { name: wrong message, call: fail, expect: { error: { message: network } } }
  - { name: no error expected, call: fail }
  - { name: error false, call: nope, expect: { error: false } }
`);
    expect(failures["unknown tool"]).toEqual([]);
    expect(failures["isError counts"]).toEqual([]);
    expect(failures["not an error"]).toEqual([
      "expected an error (a JSON-RPC error or an isError result), got a result",
    ]);
    expect(failures.code).toEqual([]);
    expect(failures["wrong code"]?.[0]).toMatch(/^expected JSON-RPC error -32601, got -32602: .*nope/);
    expect(failures.message).toEqual([]);
    expect(failures["wrong message"]).toEqual(['expected the error to say "network", it says "the disk is full"']);
    expect(failures["no error expected"]).toEqual(['the tool reported an error (isError): "the disk is full"']);
    expect(failures["error false"]?.[0]).toMatch(/^the server answered with JSON-RPC error -32602: /);
  });

  it("text: a text block contains it (each of a list)", async () => {
    const failures = await run(`
tests:
  - { name: contains, call: greet, arguments: { name: Ada }, expect: { text: "Hello, Ada" } }
  - { name: all of a list, call: greet, arguments: { name: Ada }, expect: { text: [Hello, Ada] } }
  - { name: missing, call: greet, arguments: { name: Ada }, expect: { text: Goodbye } }
  - { name: in a prompt, prompt: welcome, arguments: { name: Bo }, expect: { text: "Welcome, Bo" } }
  - { name: in a resource, read: "info://about", expect: { text: About } }
`);
    expect(failures).toEqual({
      contains: [],
      "all of a list": [],
      missing: ['no text block contains "Goodbye" (the text: "Hello, Ada!")'],
      "in a prompt": [],
      "in a resource": [],
    });
  });

  it("contents of a read, messages of a prompt, values of a completion, and the whole result", async () => {
    const failures = await run(`
tests:
  - name: contents
    read: "info://about"
    expect: { contents: [{ uri: "info://about", mimeType: text/plain, text: About this server. }] }
  - { name: contents wrong, read: "info://about", expect: { contents: [{ text: other }] } }
  - { name: messages, prompt: welcome, arguments: { name: Bo }, expect: { messages: [{ role: user, content: { text: "Welcome, Bo!" } }] } }
  - { name: messages wrong, prompt: welcome, arguments: { name: Bo }, expect: { messages: [{ role: assistant }] } }
  - name: values
    complete: { ref: { resource: "note://{id}" }, argument: { name: id, value: al } }
    expect: { values: [alpha, alpine] }
  - name: values wrong
    complete: { ref: { type: ref/resource, uri: "note://{id}" }, argument: { name: id, value: al } }
    expect: { values: [alpha] }
  - { name: result, call: add, arguments: { a: 1, b: 2 }, expect: { result: { structuredContent: { sum: 3 } } } }
  - { name: tools listed, list: prompts, expect: { result: { prompts: [{ name: welcome }] } } }
`);
    expect(failures).toEqual({
      contents: [],
      "contents wrong": ['at /contents/0/text: expected "other", got "About this server."'],
      messages: [],
      "messages wrong": ['at /messages/0/role: expected "assistant", got "user"'],
      values: [],
      "values wrong": ["at /completion/values: expected 1 item, got 2"],
      result: [],
      "tools listed": [],
    });
  });

  it("schema: the result validates against a JSON Schema", async () => {
    const failures = await run(`
tests:
  - name: valid
    call: add
    arguments: { a: 1, b: 2 }
    expect:
      schema: { type: object, required: [structuredContent], properties: { structuredContent: { properties: { sum: { type: integer } } } } }
  - name: invalid
    call: add
    arguments: { a: 1, b: 2 }
    expect: { schema: { type: object, properties: { structuredContent: { properties: { sum: { type: string } } } } } }
`);
    expect(failures.valid).toEqual([]);
    expect(failures.invalid).toEqual(["the result does not match the schema: structuredContent.sum: must be string"]);
  });

  it("maxMs: the answer came within the budget", async () => {
    const failures = await run(
      `
tests:
  - { name: fast, call: greet, arguments: { name: A }, expect: { maxMs: 5000 } }
  - { name: slow, call: slow, expect: { maxMs: 5 } }
`,
      testServer({ slowMs: 50 }),
    );
    expect(failures.fast).toEqual([]);
    expect(failures.slow?.[0]).toMatch(/^took \d+ ms, more than maxMs 5$/);
  });

  it.each(["2025-11-25", "2026-07-28"])(
    "notifications (%s): methods, or methods with params, that came during the request",
    async (revision) => {
      const failures = await run(`
protocol: "${revision}"
tests:
  - { name: progress and log, call: count, arguments: { n: 2 }, expect: { notifications: [notifications/progress, notifications/message] } }
  - name: with params
    call: count
    arguments: { n: 2 }
    expect: { notifications: [{ method: notifications/progress, params: { progress: 2, total: 2 } }, { method: notifications/message, params: { data: { counted: 2 } } }] }
  - { name: wrong params, call: count, arguments: { n: 1 }, expect: { notifications: [{ method: notifications/progress, params: { progress: 5 } }] } }
  - { name: none came, call: greet, arguments: { name: A }, expect: { notifications: [notifications/progress] } }
`);
      expect(failures["progress and log"]).toEqual([]);
      expect(failures["with params"]).toEqual([]);
      expect(failures["wrong params"]).toEqual([
        'no notifications/progress matched {"progress":5}: at /progress: expected 5, got 1',
      ]);
      expect(failures["none came"]).toEqual(["no notifications/progress came during the request (none came)"]);
    },
  );
});

describe("the client's answers", () => {
  it("answer the server's questions: the file's for every test, a test's own over them", async () => {
    const failures = await run(`
client:
  elicitation: { action: accept, content: { ok: true } }
tests:
  - { name: accepted, call: confirm, arguments: { what: x }, expect: { text: confirmed } }
  - name: declined
    call: confirm
    arguments: { what: x }
    client: { elicitation: { action: decline } }
    expect: { text: declined }
`);
    expect(failures).toEqual({ accepted: [], declined: [] });
  });

  it("declare nothing the file does not give: a question then fails", async () => {
    const failures = await run(
      "tests: [{ name: asks, call: confirm, arguments: { what: x }, expect: { error: true } }]",
    );
    expect(failures).toEqual({ asks: [] });
  });
});

describe("the report", () => {
  it("counts passed and failed, and says so last; junit and json say the same", async () => {
    const path = join(dir, "report.mcptest.yaml");
    writeFileSync(
      path,
      `tests:
  - { name: passes, call: greet, arguments: { name: A } }
  - { name: "fails <&>", call: greet, arguments: { name: A }, expect: { text: B } }
`,
    );
    const report = await runTests(path, { server: testServer() });
    expect([report.passed, report.failed]).toEqual([1, 1]);
    expect(formatReport(report, "text").trimEnd().split("\n").at(-1)).toBe("1 passed, 1 failed");
    const json = JSON.parse(formatReport(report, "json"));
    expect(json).toMatchObject({ passed: 1, failed: 1, files: [{ file: path, tests: [{ ok: true }, { ok: false }] }] });
    const junit = formatReport(report, "junit");
    expect(junit).toContain('<testsuites name="mcpkit test" tests="2" failures="1" errors="0">');
    expect(junit).toContain('name="fails &lt;&amp;&gt;"');
    expect(junit).toContain(
      '<failure message="no text block contains &quot;B&quot; (the text: &quot;Hello, A!&quot;)">',
    );
  });

  it("fails every test of a file whose server cannot be started, saying why and what it wrote", async () => {
    const path = join(dir, "broken.mcptest.yaml");
    writeFileSync(
      path,
      `server: { command: "${process.execPath}", args: ["-e", "console.error('no config found'); process.exit(3)"] }
tests:
  - { name: one, call: greet }
  - { name: two, call: greet }
`,
    );
    const report = await runTests(path);
    expect(report.failed).toBe(2);
    for (const test of report.files[0]?.tests ?? []) {
      expect(test.failures[0]).toMatch(/^Could not connect to .*: /);
      expect(test.failures[0]).toContain("Its stderr ended with:\nno config found");
    }
  });

  it("starts a command in the test file's folder", async () => {
    const folder = join(dir, "project");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "where.mjs"), "process.stdout.write('');\n");
    const path = join(folder, "cwd.mcptest.yaml");
    writeFileSync(
      path,
      `server: { command: "${process.execPath}", args: ["-e", "console.error(process.cwd()); process.exit(1)"] }
tests:
  - { name: where, call: greet }
`,
    );
    const report = await runTests(path);
    expect(report.files[0]?.tests[0]?.failures[0]).toContain(`Its stderr ended with:\n${folder}`);
  });
});
