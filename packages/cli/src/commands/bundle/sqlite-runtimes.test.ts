import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteRuntimes } from "./sqlite-runtimes.js";

// Which Node.js versions a workspace bundle names: node:sqlite's, and the one major its
// better-sqlite3 was built for, read from the binary (node_register_module_v<ABI>).

const dir = mkdtempSync(join(tmpdir(), "mcpkit-sqlite-runtimes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A better-sqlite3 folder whose binary exports the entry point of NODE_MODULE_VERSION `abi`. */
function builtFor(abi: number): string {
  const pkg = join(dir, `abi-${abi}`);
  mkdirSync(join(pkg, "build", "Release"), { recursive: true });
  writeFileSync(
    join(pkg, "build", "Release", "better_sqlite3.node"),
    Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]), Buffer.from(`\0node_register_module_v${abi}\0`)]),
  );
  return pkg;
}

describe("the Node.js versions a workspace bundle runs SQL on", () => {
  it("without better-sqlite3: node:sqlite's only", () => {
    expect(sqliteRuntimes(undefined)).toMatchObject({ node: "^22.16.0 || >=24.0.0", keepBetterSqlite: false });
    expect(sqliteRuntimes(join(dir, "not-installed")).note).toMatch(/no better-sqlite3 here/);
  });

  it("with a better-sqlite3 built for Node 20 or 22: that major too, and the package goes in", () => {
    expect(sqliteRuntimes(builtFor(115))).toMatchObject({
      node: "^20.0.0 || ^22.16.0 || >=24.0.0",
      keepBetterSqlite: true,
      note: expect.stringMatching(/better-sqlite3 \(built for Node\.js 20 on \w+\) on 20, node:sqlite on the others/),
    });
    expect(sqliteRuntimes(builtFor(127))).toMatchObject({ node: "^22.0.0 || >=24.0.0", keepBetterSqlite: true });
    expect(sqliteRuntimes(builtFor(131))).toMatchObject({
      node: "^22.16.0 || ^23.0.0 || >=24.0.0",
      keepBetterSqlite: true,
    });
  });

  it("built for Node 24 or later, or for an ABI it does not know: left out, and says why", () => {
    expect(sqliteRuntimes(builtFor(137))).toMatchObject({
      node: "^22.16.0 || >=24.0.0",
      keepBetterSqlite: false,
      note: expect.stringMatching(/left out: built for Node\.js 24, where node:sqlite serves/),
    });
    expect(sqliteRuntimes(builtFor(999)).note).toMatch(/NODE_MODULE_VERSION 999, a Node\.js mcpkit does not know/);
  });

  it("reads the better-sqlite3 installed here as built for the Node.js that loads it", () => {
    const installed = dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"));
    const major = Number(process.versions.node.split(".")[0]);
    expect(sqliteRuntimes(installed).note).toContain(`built for Node.js ${major}`);
  });
});
