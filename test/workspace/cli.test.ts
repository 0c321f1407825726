import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, closeAll, connectStdio, runCli, textOf } from "./helpers.js";

// The command line of `mcpkit serve workspace`: its options, and the clear errors for
// wrong ones (exit code 1, one line on stderr, no stack trace).

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-ws-cli-"));
  mkdirSync(join(dir, "root"));
  writeFileSync(join(dir, "root", "notes.txt"), "0123456789abcdef\n");
  writeFileSync(join(dir, "not-a.db"), "this is not a database, just text that is long enough to be read\n".repeat(20));
});
afterEach(closeAll);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mcpkit serve workspace options", () => {
  // 2: the command line is wrong (as in mcpkit call); 1: what it names is not there.
  it.each([
    [["serve", "everything", "--root", "."], /--root applies to the workspace server only/, 2],
    [["serve", "everything", "--allow-write"], /--allow-write applies to the workspace and github servers only/, 2],
    [["serve", "workspace", "--root", "/no/such/dir"], /--root \/no\/such\/dir: no such directory/, 1],
    [
      ["serve", "workspace", "--max-read-bytes", "lots"],
      /--max-read-bytes must be a positive whole number, not "lots"/,
      2,
    ],
    [
      ["serve", "workspace", "--query-timeout", "0"],
      /--query-timeout takes a duration such as 5000 \(milliseconds\), 5s, 15m or 2h, not "0"/,
      2,
    ],
  ])("refuses %j", async (args, message, exitCode) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(exitCode);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses a --db that is missing or not a database", async () => {
    const missing = await runCli(["serve", "workspace", "--root", dir, "--db", join(dir, "missing.db")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--db .*missing\.db: no such file/);
    const bogus = await runCli(["serve", "workspace", "--root", dir, "--db", join(dir, "not-a.db")]);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toMatch(/--db .*not-a\.db: file is not a database/);
  });

  it("says what it serves on stderr, and exits when stdin closes", async () => {
    const { code, stderr } = await runCli(["serve", "workspace", "--root", join(dir, "root")]);
    expect(code).toBe(0);
    expect(stderr).toContain(`roots: ${join(dir, "root")} (read-only)`);
    expect(stderr).toMatch(/database: the built-in sample database/);
  });

  it("applies --max-read-bytes", async () => {
    const { client } = await connectStdio(["--root", join(dir, "root"), "--max-read-bytes", "10"]);
    const result = await call(client, "read_file", { path: "notes.txt" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Refused: notes.txt is 17 bytes, over the 10 bytes read limit (--max-read-bytes)");
  });
});
