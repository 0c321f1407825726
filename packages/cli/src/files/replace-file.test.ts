import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangedMeanwhile, replaceFile } from "./replace-file.js";

// A configuration file is replaced whole, and only when it still holds what was read.

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-replace-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("replacing a file", () => {
  it("replaces nothing when the file changed after it was read (its client wrote it meanwhile)", () => {
    const file = join(dir, "mcp.json");
    writeFileSync(file, '{ "mcpServers": { "theirs": {} } }');
    expect(() => replaceFile(file, "{}", { expected: '{ "mcpServers": {} }', backup: `${file}.bak` })).toThrow(
      ChangedMeanwhile,
    );
    expect(readFileSync(file, "utf8")).toBe('{ "mcpServers": { "theirs": {} } }');
    expect(readdirSync(dir).sort()).toEqual(["mcp.json"]); // no backup, no temporary file
    expect(() => replaceFile(join(dir, "new.json"), "{}", { expected: undefined })).not.toThrow();
    writeFileSync(join(dir, "made-meanwhile.json"), "{}");
    expect(() => replaceFile(join(dir, "made-meanwhile.json"), "[]", { expected: undefined })).toThrow(
      ChangedMeanwhile,
    );
  });
});
