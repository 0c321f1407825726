import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reloadsFor } from "./reload-filter.js";

// Which changes reload mcpkit dev: the module's own import graph and --watch paths, not
// what the server writes beside itself.

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-reload-filter-"));
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "shared"));
  for (const file of ["src/server.ts", "src/tools.ts", "src/server.log", "src/data.json", "shared/x.md"])
    writeFileSync(join(dir, file), "");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("reloadsFor", () => {
  it("reloads for a file of the import graph, not for a log or a file the server writes beside itself", () => {
    const graph = new Set([join(dir, "src/server.ts"), join(dir, "src/tools.ts")]);
    const counts = reloadsFor(() => graph, []);
    expect(counts(join(dir, "src/server.ts"))).toBe(true);
    expect(counts(join(dir, "src/tools.ts"))).toBe(true);
    expect(counts(join(dir, "src/server.log"))).toBe(false);
    expect(counts(join(dir, "src/data.json"))).toBe(false);
  });

  it("reloads for a folder of imported files removed or made again, not for another folder", () => {
    const counts = reloadsFor(() => new Set([join(dir, "src/lib/suffix.ts")]), []);
    expect(counts(join(dir, "src/lib"))).toBe(true);
    expect(counts(join(dir, "src/li"))).toBe(false);
    expect(counts(join(dir, "shared"))).toBe(false);
  });

  it("reloads for anything under a --watch path", () => {
    const counts = reloadsFor(() => new Set([join(dir, "src/server.ts")]), [join(dir, "shared")]);
    expect(counts(join(dir, "shared/x.md"))).toBe(true);
    expect(counts(join(dir, "src/server.log"))).toBe(false);
  });

  it("knows a file of the graph reached through a linked folder", () => {
    symlinkSync(join(dir, "src"), join(dir, "linked"));
    const counts = reloadsFor(() => new Set([join(dir, "src/tools.ts")]), []);
    expect(counts(join(dir, "linked/tools.ts"))).toBe(true);
  });

  it("before a graph is known (the first build failed), reloads for source files only", () => {
    const counts = reloadsFor(() => undefined, []);
    expect(counts(join(dir, "src/tools.ts"))).toBe(true);
    expect(counts(join(dir, "src/server.log"))).toBe(false);
  });
});
