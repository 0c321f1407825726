import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, call, closeAll, connectStdio, makeGitRepo, textOf } from "./helpers.js";

// Git, read-only, when a root is a repository: tools, git:// resources, and the
// analyze_commits prompt with branch completion. The repository has two authors, a
// feature branch, a modified file and an untracked one (helpers.makeGitRepo).

let dir: string;
let repo: string;
let ws: Connected;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-ws-git-")));
  repo = join(dir, "project");
  mkdirSync(repo);
  makeGitRepo(repo);
  ws = await connectStdio(["--root", repo], { protocolVersion: "2025-11-25" });
}, 20_000);

afterAll(async () => {
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe("tools", () => {
  it("shows the status, the log and the diff", async () => {
    const status = textOf(await call(ws.client, "git_status"));
    expect(status.split("\n")).toEqual(["## main", " M app.js", "?? untracked.txt"]);

    const log = textOf(await call(ws.client, "git_log"));
    expect(log).toMatch(
      /^commit [0-9a-f]{40}\nAuthor: Grace <grace@example\.com>\nDate: {3}2024-07-02T12:00:00\+00:00\n/,
    );
    expect(log.indexOf("docs: add notes")).toBeLessThan(log.indexOf("feat: first version"));
    expect(log).not.toContain("feat: login");

    const one = textOf(await call(ws.client, "git_log", { maxCount: 1, stat: true }));
    expect(one).toContain("docs: add notes");
    expect(one).toContain("docs/notes.md | 1 +");
    expect(one).not.toContain("first version");
    const byAda = textOf(await call(ws.client, "git_log", { author: "Ada" }));
    expect(byAda).toContain("feat: first version");
    expect(byAda).not.toContain("docs: add notes");
    const branch = textOf(await call(ws.client, "git_log", { branch: "feature/login" }));
    expect(branch).toContain("feat: login");
    const future = textOf(await call(ws.client, "git_log", { since: "2024-07-02T18:00:00Z" }));
    expect(future).toBe("No commits match.");

    const diff = textOf(await call(ws.client, "git_diff"));
    expect(diff).toContain("-console.log('v1');\n+console.log('v2');");
    expect(textOf(await call(ws.client, "git_diff", { staged: true }))).toBe("No differences.");
    const against = textOf(await call(ws.client, "git_diff", { target: "feature/login", path: "login.js" }));
    expect(against).toContain("-export const login = () => true;");
    expect(textOf(await call(ws.client, "git_branches")).split("\n")).toEqual(["feature/login", "main"]);
  });

  it("explains a bad revision and refuses option injection", async () => {
    const unknown = await call(ws.client, "git_log", { branch: "no-such-branch" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/git log failed: fatal: bad revision 'no-such-branch'/);
    const injected = await call(ws.client, "git_log", { branch: "--all" });
    expect(textOf(injected)).toMatch(/Refused: the branch "--all" starts with "-"/);
    const weird = await call(ws.client, "git_diff", { target: "HEAD;rm -rf /" });
    expect(textOf(weird)).toMatch(/is not a target name/);
  });

  it("marks every git tool read-only", async () => {
    const tools = (await ws.client.tools()).filter((t) => t.name.startsWith("git_"));
    expect(tools.map((t) => t.name).sort()).toEqual(["git_branches", "git_diff", "git_log", "git_status"]);
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true });
  });
});

describe("resources and the analyze_commits prompt", () => {
  it("serves commits, status and diff as git:// resources, and a branch's commits by template", async () => {
    const uris = (await ws.client.resources()).map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining(["git://project/commits", "git://project/status", "git://project/diff"]),
    );
    const commits = await ws.client.readResource("git://project/commits");
    expect((commits.contents[0] as { text: string }).text).toContain("feat: first version");
    const diff = await ws.client.readResource("git://project/diff");
    expect(diff.contents[0]).toMatchObject({
      mimeType: "text/x-diff",
      text: expect.stringContaining("+console.log('v2');"),
    });
    const feature = await ws.client.readResource("git://project/commits/feature/login");
    expect((feature.contents[0] as { text: string }).text).toContain("feat: login");
    await expect(ws.client.readResource("git://other/commits/main")).rejects.toThrow(/No repository named "other"/);

    const branches = await ws.client.complete({
      ref: { type: "ref/resource", uri: "git://{repo}/commits/{+branch}" },
      argument: { name: "branch", value: "fe" },
      context: { arguments: { repo: "project" } },
    });
    expect(branches.completion.values).toEqual(["feature/login"]);
  });

  it("completes branch names and embeds the log in analyze_commits", async () => {
    const prompt = (await ws.client.prompts()).find((p) => p.name === "analyze_commits");
    expect(prompt?.arguments).toEqual([
      expect.objectContaining({ name: "branch", required: true }),
      expect.objectContaining({ name: "since" }),
      expect.objectContaining({ name: "author" }),
    ]);
    const completed = await ws.client.complete({
      ref: { type: "ref/prompt", name: "analyze_commits" },
      argument: { name: "branch", value: "" },
    });
    expect(completed.completion.values).toEqual(["feature/login", "main"]);

    const result = await ws.client.getPrompt("analyze_commits", {
      branch: "main",
      since: "2024-06-01",
      author: "Grace",
    });
    expect(result.description).toBe("Commits on main since 2024-06-01, by Grace");
    expect(result.messages[0]?.content).toMatchObject({
      type: "text",
      text: expect.stringMatching(/breaking changes/),
    });
    const embedded = result.messages[1]?.content as { type: string; resource: { uri: string; text: string } };
    expect(embedded.type).toBe("resource");
    expect(embedded.resource.uri).toBe("git://project/commits/main");
    expect(embedded.resource.text).toContain("docs: add notes");
    expect(embedded.resource.text).toContain("docs/notes.md | 1 +");
    expect(embedded.resource.text).not.toContain("first version");
    await expect(ws.client.getPrompt("analyze_commits", { branch: "--output=x" })).rejects.toThrow(/starts with "-"/);
  });
});

describe("a client whose root is a subdirectory of the repository", () => {
  it("sees only the history and changes under its root", async () => {
    const docs = await connectStdio(["--root", repo], {
      protocolVersion: "2025-11-25",
      roots: [{ uri: pathToFileURL(join(repo, "docs")).href, name: "docs" }],
    });
    const log = textOf(await call(docs.client, "git_log"));
    expect(log).toContain("docs: add notes");
    expect(log).not.toContain("feat: first version");
    expect(textOf(await call(docs.client, "git_diff"))).toBe("No differences.");
    expect(textOf(await call(docs.client, "git_status"))).toBe("## main");
    const outside = await call(docs.client, "git_log", { path: join(repo, "app.js") });
    expect(textOf(outside)).toMatch(/outside the allowed directories/);
  });
});
