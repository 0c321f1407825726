import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "mcpkit";
import { connectInMemory } from "mcpkit/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceServer } from "./index.js";

// The factory, in this process: the files of its root, served; close() lets go of what it
// made.
// The tools themselves are tested in test/workspace, over the real command too.

let dir = "";
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-workspace-factory-")));
  mkdirSync(join(dir, "notes"));
  writeFileSync(join(dir, "notes", "today.md"), "# Today\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const text = (result: CallToolResult) => result.content.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("workspaceServer", () => {
  it("serves the files of its root, read-only unless told, and says so in its summary", async () => {
    const workspace = await workspaceServer({ root: dir });
    const { client, close } = await connectInMemory(workspace.server);
    try {
      const names = (await client.tools()).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["read_file", "list_directory", "search_files"]));
      expect(names).not.toContain("write_file");
      expect(text(await client.callTool("read_file", { path: "notes/today.md" }))).toContain("# Today");
      expect(workspace.summary).toContain(`roots: ${dir} (read-only)`);
    } finally {
      await close();
      await workspace.close();
    }
  });

  it("takes one root or several, and registers the tools that write with allowWrite", async () => {
    const other = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-workspace-other-")));
    const workspace = await workspaceServer({ root: [dir, other], allowWrite: true });
    const { client, close } = await connectInMemory(workspace.server);
    try {
      expect((await client.tools()).map((t) => t.name)).toContain("write_file");
      expect(workspace.summary).toContain(`roots: ${dir}, ${other} (read-write)`);
    } finally {
      await close();
      await workspace.close();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("makes a sample database without db, and close() removes it", async () => {
    const workspace = await workspaceServer({ root: dir });
    const sample = /database: the built-in sample database .* at (.+)$/m.exec(workspace.summary)?.[1];
    expect(sample, workspace.summary).toBeDefined();
    expect(existsSync(sample as string)).toBe(true);
    await workspace.close();
    expect(existsSync(sample as string)).toBe(false);
  });

  it("answers its SQL tools with why they cannot work when better-sqlite3 cannot be loaded", async () => {
    const workspace = await workspaceServer({ root: dir, sqlite: "an-absent-sqlite-package" });
    const { client, close } = await connectInMemory(workspace.server);
    try {
      const result = await client.callTool("read_query", { sql: "SELECT 1" });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/better-sqlite3 is not installed .*npm install better-sqlite3/);
      expect(workspace.summary).toMatch(/database: none \(SQLite is unavailable/);
    } finally {
      await close();
      await workspace.close();
    }
  });
});
