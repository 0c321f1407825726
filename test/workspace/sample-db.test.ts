import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { assertBuilt, MCPKIT_BIN, runCli, SERVER_NODE } from "./helpers.js";

/** The sample database lives in the temp folder while the server runs, and is gone once it exits. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-sample-test-"));
  dirs.push(dir);
  return dir;
};

describe("serve workspace's sample database", () => {
  it("is removed when the server exits, after queries ran in its SQLite process", async () => {
    assertBuilt();
    // The server's own temp folder, so what it leaves there is its alone.
    const temp = scratch();
    const transport = stdioClientTransport({
      command: SERVER_NODE,
      args: [MCPKIT_BIN, "serve", "workspace", "--root", temp],
      env: { TMPDIR: temp },
      stderr: "pipe",
    });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(transport);
    expect(readdirSync(temp).filter((f) => f.startsWith("mcpkit-sample-"))).toHaveLength(1);
    const answer = await client.callTool("read_query", { sql: "SELECT count(*) AS n FROM customers" });
    expect(answer.structuredContent).toMatchObject({ columns: ["n"], rows: [[5]] });
    await client.close();
    expect(transport.exit).toMatchObject({ code: 0 });
    expect(readdirSync(temp).filter((f) => f.startsWith("mcpkit-sample-"))).toEqual([]);
  }, 30_000);
});

describe("serve workspace --db, refused before serving with what to do", () => {
  it("names a missing file as missing", async () => {
    const missing = join(scratch(), "nope.db");
    const { code, stderr } = await runCli(["serve", "workspace", "--db", missing]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`--db ${missing}: no such file`);
    expect(stderr).toContain("leave out --db for the sample database");
    expect(stderr).not.toContain("unable to open database file");
  });

  it("names a directory as a directory", async () => {
    const dir = join(scratch(), "data");
    mkdirSync(dir);
    const { code, stderr } = await runCli(["serve", "workspace", "--db", dir]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`--db ${dir}: a directory, not a SQLite database file`);
    expect(stderr).not.toContain("disk I/O error");
  });
});
