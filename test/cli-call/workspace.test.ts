import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, mcpkit, requireBuild, stopAll } from "./helpers.js";

// `mcpkit call` driving `mcpkit serve workspace --stdio`: the two halves of the CLI, as a
// person would use them together. Each test starts four pairs of processes one after the
// other, hence their longer bound.

const PAIRS = 60_000;

let root = "";
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), "mcpkit-call-workspace-"));
  writeFileSync(join(root, "notes.txt"), "buy milk\n");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "main.ts"), "export const answer = 42;\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(stopAll);

const workspace = (...extra: string[]) => [
  "--",
  process.execPath,
  CLI_BIN,
  "serve",
  "workspace",
  "--stdio",
  "--root",
  root,
  ...extra,
];

describe("mcpkit call against mcpkit serve workspace over stdio", () => {
  it(
    "lists the read-only tools and reads, searches and describes files",
    async () => {
      const tools = await mcpkit(["call", "tools", ...workspace()]);
      expect(tools.code).toBe(0);
      expect(tools.stdout).toContain("read_file(path: string)");
      expect(tools.stdout).not.toContain("write_file");

      const read = await mcpkit(["call", "read_file", "path=notes.txt", ...workspace()]);
      expect(read).toMatchObject({ code: 0, stdout: "buy milk\n" });
      const search = await mcpkit(["call", "search_content", "query=answer", ...workspace()]);
      expect(search.stdout).toContain("main.ts:1: export const answer = 42;");
      const resource = await mcpkit(["call", "read", `file://${root}/src/main.ts`, ...workspace()]);
      expect(resource.stdout).toContain("export const answer = 42;");
    },
    PAIRS,
  );

  it(
    "refuses what the sandbox forbids with a tool error (exit 1) and writes only with --allow-write",
    async () => {
      const outside = await mcpkit(["call", "call", "read_file", "path=../../etc/passwd", ...workspace()]);
      expect(outside.code).toBe(1);
      expect(outside.stderr + outside.stdout).toMatch(/outside|not allowed|allowed directories/i);

      const refused = await mcpkit(["call", "call", "write_file", "path=new.txt", "content=x", ...workspace()]);
      expect(refused.code).toBe(2); // no such tool without --allow-write
      const written = await mcpkit([
        "call",
        "call",
        "write_file",
        "path=new.txt",
        "content=hello",
        ...workspace("--allow-write"),
      ]);
      expect(written.code).toBe(0);
      const back = await mcpkit(["call", "call", "read_file", "path=new.txt", ...workspace()]);
      expect(back.stdout).toBe("hello\n");
    },
    PAIRS,
  );
});
