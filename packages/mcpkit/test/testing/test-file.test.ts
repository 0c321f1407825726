import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findTestFiles } from "../../src/testing/runner/find-files.js";
import { parseTestFile } from "../../src/testing/runner/load.js";
import { runTests } from "../../src/testing/runner/run-tests.js";
import { TestFileError } from "../../src/testing/runner/test-file.js";

// A test file is read strictly: a mistake in it is a usage error that says where and
// what to write instead, never a test that checks nothing.

const read = (yaml: string) => parseTestFile(yaml, "/project/t.mcptest.yaml");
const refused = (yaml: string) => expect(read(yaml)).rejects.toThrow(TestFileError);

describe("reading a test file", () => {
  it("reads the shape the docs give: server, tests, requests and expectations", async () => {
    const file = await read(`
server: { command: node, args: [dist/server.js, 3], env: { DEBUG: "1" } }
protocol: "2025-11-25"
timeout: 5000
tests:
  - { name: a, call: add, arguments: { a: 2 }, expect: { structuredContent: { sum: 5 } } }
  - { name: b, read: "info://x" }
  - { name: c, prompt: p, arguments: { who: Ada } }
  - { name: d, complete: { ref: { prompt: p }, argument: { name: who, value: A } } }
  - { name: e, list: templates }
`);
    expect(file).toMatchObject({
      dir: "/project",
      server: { command: "node", args: ["dist/server.js", "3"], env: { DEBUG: "1" } },
      protocol: "2025-11-25",
      timeoutMs: 5000,
    });
    expect(file.tests.map((t) => t.request)).toEqual([
      { kind: "call", name: "add", arguments: { a: 2 } },
      { kind: "read", uri: "info://x" },
      { kind: "prompt", name: "p", arguments: { who: "Ada" } },
      { kind: "complete", ref: { type: "ref/prompt", name: "p" }, argument: { name: "who", value: "A" } },
      { kind: "list", list: "templates" },
    ]);
    expect((await read("server: http://127.0.0.1:1/mcp\ntests: [{ name: a, call: x }]")).server).toEqual({
      url: "http://127.0.0.1:1/mcp",
      headers: {},
    });
    expect((await read("server: my-server\ntests: [{ name: a, call: x }]")).server).toEqual({ name: "my-server" });
  });

  it("refuses what a typo would make: unknown keys at every level, naming the known ones", async () => {
    await expect(read("tests: [{ name: a, call: x, expcet: {} }]")).rejects.toThrow(
      '/project/t.mcptest.yaml: tests[0]: unknown key "expcet" (known: name, call, read, prompt, complete, list, arguments, client, expect)',
    );
    await expect(read("tests: [{ name: a, call: x, expect: { structured: 1 } }]")).rejects.toThrow(
      /tests\[0\] \(a\) expect: unknown key "structured"/,
    );
    await expect(read("tset: []")).rejects.toThrow(/unknown key "tset"/);
    await expect(read("server: { command: node, argz: [] }\ntests: [{ name: a, call: x }]")).rejects.toThrow(
      /server: unknown key "argz"/,
    );
  });

  it("refuses a test without a name, with no request or two, and names used twice", async () => {
    await expect(read("tests: [{ call: x }]")).rejects.toThrow(/tests\[0\]: give the test a `name`/);
    await expect(read("tests: [{ name: a }]")).rejects.toThrow(/say what to send: call, read, prompt, complete, list/);
    await expect(read("tests: [{ name: a, call: x, read: y }]")).rejects.toThrow(
      /one request per test, not call and read/,
    );
    await expect(read("tests: [{ name: a, call: x }, { name: a, call: y }]")).rejects.toThrow(/"a" is used twice/);
    await expect(read("tests: []")).rejects.toThrow(/tests: give a list of at least one test/);
  });

  it("refuses values of the wrong kind, saying what to give", async () => {
    await refused("protocol: 2020-01-01\ntests: [{ name: a, call: x }]");
    await refused("tests: [{ name: a, call: x, expect: { maxMs: -1 } }]");
    await refused("tests: [{ name: a, call: x, expect: { error: maybe } }]");
    await refused("tests: [{ name: a, prompt: p, arguments: { n: 1 } }]");
    await refused("tests: [{ name: a, read: x, arguments: { n: 1 } }]");
    await refused("tests: [{ name: a, list: everything }]");
    await refused("tests: [{ name: a, complete: { ref: { prompt: p } } }]");
    await expect(read("tests: [{ name: a, call: x, expect: { schema: { type: strnig } } }]")).rejects.toThrow(
      /expect.schema: Invalid JSON Schema: "type" must name JSON types, not "strnig"/,
    );
  });

  it("refuses YAML that is not valid, and stops an alias bomb before it expands", async () => {
    await expect(read("tests: [ { name: a")).rejects.toThrow(/is not valid YAML/);
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = String.fromCharCode(97 + i);
        const name = String.fromCharCode(98 + i);
        return `${name}: &${name} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`;
      }),
      "tests: [{ name: t, call: x, arguments: { v: *i } }]",
    ].join("\n");
    await expect(read(bomb)).rejects.toThrow(/resource exhaustion/);
  });

  it("needs a server: in the file, or given to runTests; a name only where the caller can resolve one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-tf-"));
    try {
      writeFileSync(join(dir, "none.mcptest.yaml"), "tests: [{ name: a, call: x }]");
      await expect(runTests(join(dir, "none.mcptest.yaml"))).rejects.toThrow(/say which server to test/);
      writeFileSync(join(dir, "named.mcptest.yaml"), "server: mine\ntests: [{ name: a, call: x }]");
      await expect(runTests(join(dir, "named.mcptest.yaml"))).rejects.toThrow(
        /"mine" names a server in an MCP configuration file: give a command or a url/,
      );
      await expect(runTests(join(dir, "missing.mcptest.yaml"))).rejects.toThrow(/missing.mcptest.yaml: no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the default test files", () => {
  const root = mkdtempSync(join(tmpdir(), "mcpkit-find-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("are **/*.mcptest.yaml, leaving out node_modules, dot folders and links", async () => {
    for (const dir of ["a/b", "node_modules/pkg", ".git", ".cache/x", "c"])
      mkdirSync(join(root, dir), { recursive: true });
    for (const file of [
      "top.mcptest.yaml",
      "a/b/deep.mcptest.yaml",
      "a/other.yaml",
      "c/also.mcptest.yml",
      "node_modules/pkg/theirs.mcptest.yaml",
      ".git/x.mcptest.yaml",
      ".cache/x/y.mcptest.yaml",
    ])
      writeFileSync(join(root, file), "tests: []\n");
    symlinkSync(join(root, "a"), join(root, "link"));
    expect(await findTestFiles(root)).toEqual(["a/b/deep.mcptest.yaml", "c/also.mcptest.yml", "top.mcptest.yaml"]);
  });
});
