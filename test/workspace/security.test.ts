import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { McpError } from "mcpkit/jsonrpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_SQL } from "../../packages/servers/src/workspace/sqlite/sample.js";
import {
  type Connected,
  call,
  closeAll,
  connectStdio,
  type Fixture,
  makeFixture,
  makeGitRepo,
  seedDatabase,
  snapshot,
  textOf,
  within,
} from "./helpers.js";
import { WRITE_QUERY_REFUSALS, WRITING_SQL } from "./sql-corpus.js";

// The security corpus: every way out of the sandboxes we could think of, against the real
// binary over stdio, in both protocol eras. Each attempt must come back as a clear refusal,
// and at the end the whole temp tree (roots, the outside directory, the database file and
// the git repository) must be byte-for-byte what it was.

type Args = (fx: Fixture & { repo: string; db: string }) => Record<string, unknown>;

/** [what, tool, arguments, the refusal's wording] on the read-only server. */
const READ_ONLY_REFUSALS: [string, string, Args, RegExp][] = [
  ["a .. path", "read_file", () => ({ path: "../outside/secret.txt" }), /outside the allowed directories/],
  [
    "a .. path deep inside",
    "read_file",
    () => ({ path: "src/lib/../../../outside/secret.txt" }),
    /outside the allowed/,
  ],
  ["an absolute path outside the roots", "read_file", (fx) => ({ path: join(fx.outside, "secret.txt") }), /outside/],
  ["/etc/passwd", "read_file", () => ({ path: "/etc/passwd" }), /outside the allowed directories/],
  ["a file:// URI outside the roots", "read_file", () => ({ path: "file:///etc/passwd" }), /outside the allowed/],
  ["a symlinked directory out of the root", "read_file", () => ({ path: "escape/secret.txt" }), /symbolic link/],
  ["a symlinked file out of the root", "read_file", () => ({ path: "secret-link" }), /symbolic link/],
  ["listing through a symlink", "list_directory", () => ({ path: "escape" }), /symbolic link/],
  ["a tree through a symlink", "directory_tree", () => ({ path: "escape" }), /symbolic link/],
  ["searching through a symlink", "search_content", () => ({ query: "SECRET", path: "escape" }), /symbolic link/],
  ["file info through a symlink", "get_file_info", () => ({ path: "secret-link" }), /symbolic link/],
  ["a .. path among several files", "read_multiple_files", () => ({ paths: ["../outside/secret.txt"] }), /outside/],
  ["a FIFO", "read_file", () => ({ path: "fifo" }), /FIFO \(named pipe\); only regular files are read/],
  ["a device", "read_file", () => ({ path: "/dev/zero" }), /outside the allowed directories/],
  ["a 1 GiB file", "read_file", () => ({ path: "big.bin" }), /is 1 GiB, over the 1 MiB read limit/],
  ["a NUL byte", "read_file", () => ({ path: "README.md\0.txt" }), /NUL byte/],
  [
    "git option injection in a branch",
    "git_log",
    (fx) => ({ branch: `--output=${fx.root}/pwned.txt` }),
    /starts with "-"/,
  ],
  ["git option injection in a target", "git_diff", (fx) => ({ target: `--output=${fx.root}/pwned.txt` }), /starts/],
  ["a git path outside the repository", "git_log", (fx) => ({ path: join(fx.outside, "secret.txt") }), /outside/],
];

/** [what, tool, arguments, wording, a path that must not exist afterwards] on the --allow-write server. */
const WRITE_REFUSALS: [string, string, Args, RegExp, Args | undefined][] = [
  ["a write with ..", "write_file", () => ({ path: "../outside/new.txt", content: "x" }), /outside/, undefined],
  [
    "a write to an absolute path outside",
    "write_file",
    (fx) => ({ path: join(fx.dir, "new.txt"), content: "x" }),
    /outside the allowed directories/,
    undefined,
  ],
  [
    "a write through a symlinked directory",
    "write_file",
    () => ({ path: "escape/new.txt", content: "x" }),
    /symbolic/,
    undefined,
  ],
  [
    "a write through a symlinked file",
    "write_file",
    () => ({ path: "secret-link", content: "pwned" }),
    /symbolic/,
    undefined,
  ],
  [
    "a write into .git",
    "write_file",
    () => ({ path: "../repo/.git/config", content: "x" }),
    /\.git directory/,
    undefined,
  ],
  [
    "a new file in .git",
    "write_file",
    () => ({ path: "../repo/.git/hooks/pre-commit", content: "x" }),
    /\.git/,
    undefined,
  ],
  [
    "a write through a symlink into .git (the resolved path is checked, not only the path as written)",
    "write_file",
    () => ({ path: "git-internals/config", content: "[core]\n\tfsmonitor = touch /tmp/pwned\n" }),
    /git-internals\/config is inside a \.git directory/,
    undefined,
  ],
  [
    "a new directory through a symlink into .git",
    "create_directory",
    () => ({ path: "git-internals/hooks/new" }),
    /is inside a \.git directory/,
    (fx) => ({ path: join(fx.repo, ".git", "hooks", "new") }),
  ],
  [
    "a move of an entry outside, through a link out of the root and back in",
    "move_file",
    () => ({ source: "escape/back", destination: "moved" }),
    /Access denied: escape\/back is outside the allowed directories/,
    (fx) => ({ path: join(fx.root, "moved") }),
  ],
  ["a move into .git", "move_file", () => ({ source: "README.md", destination: "../repo/.git/R" }), /\.git/, undefined],
  [
    "a write into the repository's .git",
    "write_file",
    (fx) => ({ path: join(fx.repo, ".git", "config"), content: "[core]\n\tfsmonitor = touch /tmp/pwned\n" }),
    /inside a \.git directory/,
    undefined,
  ],
  ["a write to a FIFO", "write_file", () => ({ path: "fifo", content: "x" }), /FIFO/, undefined],
  [
    "an edit outside",
    "edit_file",
    () => ({ path: "../outside/secret.txt", edits: [{ oldText: "TOP", newText: "NO" }] }),
    /outside/,
    undefined,
  ],
  [
    "an edit through a symlink",
    "edit_file",
    () => ({ path: "secret-link", edits: [{ oldText: "TOP", newText: "NO" }] }),
    /symbolic/,
    undefined,
  ],
  [
    "a move out of the root",
    "move_file",
    () => ({ source: "README.md", destination: "../outside/README.md" }),
    /outside/,
    undefined,
  ],
  [
    "a move into the root from outside",
    "move_file",
    () => ({ source: "escape/secret.txt", destination: "stolen.txt" }),
    /symbolic/,
    undefined,
  ],
  [
    "a move over an existing file",
    "move_file",
    () => ({ source: "README.md", destination: "docs/guide.md" }),
    /already exists/,
    undefined,
  ],
  [
    "moving the root itself",
    "move_file",
    (fx) => ({ source: fx.root, destination: "elsewhere" }),
    /allowed directory itself/,
    undefined,
  ],
  ["a directory outside", "create_directory", () => ({ path: "../outside/newdir" }), /outside/, undefined],
  ["a directory through a symlink", "create_directory", () => ({ path: "escape/newdir" }), /symbolic/, undefined],
  ...WRITE_QUERY_REFUSALS.map(([what, sql, wording, leftBehind]): [string, string, Args, RegExp, Args | undefined] => [
    `write_query ${what}`,
    "write_query",
    (fx) => ({ sql: sql(fx) }),
    wording,
    leftBehind && ((fx) => ({ path: leftBehind(fx) })),
  ]),
];

describe.each(["2025-11-25", "2026-07-28"] as const)("security corpus, protocol %s", (protocolVersion) => {
  let fx: Fixture & { repo: string; db: string };
  let readOnly: Connected;
  let readWrite: Connected;
  let before: Record<string, string>;

  beforeAll(async () => {
    const base = makeFixture();
    fx = { ...base, repo: join(base.dir, "repo"), db: join(base.dir, "shop.db") };
    mkdirSync(fx.repo);
    makeGitRepo(fx.repo);
    // A link into the repository's .git, and one out of the root whose target leads back in.
    symlinkSync(join(fx.repo, ".git"), join(fx.root, "git-internals"));
    symlinkSync(join(fx.root, "docs"), join(fx.outside, "back"));
    seedDatabase(fx.db, SAMPLE_SQL);
    before = snapshot(fx.dir);
    const args = ["--root", fx.root, "--root", fx.repo, "--db", fx.db, "--query-timeout", "1000"];
    [readOnly, readWrite] = await Promise.all([
      connectStdio(args, { protocolVersion }),
      connectStdio([...args, "--allow-write"], { protocolVersion }),
    ]);
  }, 20_000);

  afterAll(async () => {
    await closeAll();
    fx?.cleanup();
  });

  it.each(READ_ONLY_REFUSALS)("refuses %s (%s)", async (_what, tool, args, wording) => {
    const result = await within(call(readOnly.client, tool, args(fx)), 5000, tool);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(wording);
    expect(textOf(result)).not.toContain("TOP SECRET");
  });

  it.each(WRITING_SQL)("read_query refuses %s", async (_what, sql, wording) => {
    const result = await call(readOnly.client, "read_query", { sql: sql(fx) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(wording);
  });

  it("read_query still answers, and the data is intact", async () => {
    const result = await call(readOnly.client, "read_query", {
      sql: "SELECT (SELECT count(*) FROM orders) AS orders, (SELECT sum(price_cents) FROM products) AS prices",
    });
    expect(result.structuredContent).toMatchObject({ rows: [[8, 49700]] });
    expect(existsSync(join(fx.dir, "attached.db"))).toBe(false);
    expect(existsSync(join(fx.dir, "copy.db"))).toBe(false);
  });

  it("stops a runaway query at the time limit and keeps serving", async () => {
    const started = Date.now();
    const result = await call(readOnly.client, "read_query", {
      sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n",
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/ran longer than 1000 ms and was stopped/);
    expect(Date.now() - started).toBeLessThan(4000);
    const next = await call(readOnly.client, "read_query", { sql: "SELECT count(*) AS n FROM customers" });
    expect(next.structuredContent).toMatchObject({ rows: [[5]] });
  });

  it("runs git read-only: status, log and diff take no lock and write nothing", async () => {
    for (const [tool, wording] of [
      ["git_status", /M app\.js/],
      ["git_log", /docs: add notes/],
      ["git_diff", /\+console\.log\('v2'\)/],
    ] as const) {
      const result = await call(readOnly.client, tool);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(wording);
    }
  });

  it("offers no writing tool without --allow-write", async () => {
    const names = (await readOnly.client.tools()).map((t) => t.name);
    for (const tool of ["write_file", "edit_file", "move_file", "create_directory", "write_query"])
      expect(names).not.toContain(tool);
    await expect(readOnly.client.callTool("write_file", { path: "README.md", content: "pwned" })).rejects.toThrow(
      /Unknown tool: write_file/,
    );
    await expect(readOnly.client.callTool("write_query", { sql: "DELETE FROM orders" })).rejects.toThrow(
      /Unknown tool: write_query/,
    );
  });

  it.each(WRITE_REFUSALS)(
    "with --allow-write, still refuses %s (%s)",
    async (_what, tool, args, wording, mustNotExist) => {
      const result = await within(call(readWrite.client, tool, args(fx)), 5000, tool);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(wording);
      if (mustNotExist) expect(existsSync(mustNotExist(fx).path as string)).toBe(false);
      expect(existsSync(join(fx.outside, "new.txt"))).toBe(false);
    },
  );

  describe("resource URIs", () => {
    const uri = (path: string) => `file://${path}`;

    /** The error a resources/read ends with. */
    async function readError(uriText: string): Promise<McpError> {
      const error = await readOnly.client.readResource(uriText).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      return error as McpError;
    }

    it.each([
      ["a .. segment", (fx: Fixture) => uri(`${fx.root}/../outside/secret.txt`), /outside the allowed directories/],
      ["URL-encoded ..", (fx: Fixture) => uri(`${fx.root}/%2e%2e/outside/secret.txt`), /outside the allowed/],
      ["upper-case URL-encoded ..", (fx: Fixture) => uri(`${fx.root}/%2E%2E/%2E%2E/etc/passwd`), /outside/],
      ["an encoded slash", (fx: Fixture) => uri(`${fx.root}/%2e%2e%2foutside%2fsecret.txt`), /not a local file URI/],
      ["doubly encoded ..", (fx: Fixture) => uri(`${fx.root}/%252e%252e/outside/secret.txt`), /no such|not found/i],
      ["a NUL byte", (fx: Fixture) => uri(`${fx.root}/README.md%00.txt`), /NUL byte/],
      ["a symlink out of the root", (fx: Fixture) => uri(`${fx.root}/escape/secret.txt`), /symbolic link/],
      ["/etc/passwd", () => "file:///etc/passwd", /outside the allowed directories/],
      ["a remote host", () => "file://evil.example.com/etc/passwd", /Resource not found/],
      ["the 1 GiB file", (fx: Fixture) => pathToFileURL(join(fx.root, "big.bin")).href, /over the 1 MiB read limit/],
      ["the FIFO", (fx: Fixture) => pathToFileURL(join(fx.root, "fifo")).href, /FIFO/],
    ])("refuses %s", async (_what, make, wording) => {
      const error = await within(readError(make(fx)), 5000, "resources/read");
      expect(error.message).toMatch(wording);
      expect(error.message).not.toContain("TOP SECRET");
    });

    it("answers a missing file with the revision's resource-not-found code", async () => {
      const error = await readError(pathToFileURL(join(fx.root, "missing.txt")).href);
      expect(error.code).toBe(protocolVersion === "2026-07-28" ? -32602 : -32002);
      expect(error.message).toMatch(/Resource not found/);
    });

    it("lists nothing outside the roots and no link target", async () => {
      const uris = (await readOnly.client.resources()).map((r) => r.uri);
      expect(uris.some((u) => u.includes("/outside/") || u.includes("/node_modules/"))).toBe(false);
      expect(uris).toContain(pathToFileURL(join(fx.root, "README.md")).href);
    });
  });

  it("changed nothing on disk", async () => {
    // The secret, the database and the git repository (index included: git status takes no lock).
    expect(snapshot(fx.dir)).toEqual(before);
  });
});
