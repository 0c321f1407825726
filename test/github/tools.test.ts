import { type GitHubOptions, githubServer } from "@mcpkit/servers/github";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../serve/results.js";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.js";

// The GitHub server's tools against a loopback GitHub: what each answers, pages and rate
// limits as GitHub reports them, and every kind of GitHub error as a tool error that says
// what to do. In memory, both protocol eras.

let github: FakeGitHub;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  github = await startFakeGitHub();
  github.addToken("ghp_writer", { write: true });
  github.addToken("ghp_reader", { write: false });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(() => github.close());

async function connect(options: GitHubOptions = {}, era: "2025-11-25" | "2026-07-28" = "2025-11-25") {
  const { server } = await githubServer({ apiUrl: github.url, ...options });
  const connected = await connectInMemory(server, { protocolVersion: era });
  closers.push(connected.close);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await connected.client.callTool(name, args);
    return { text: textOf(result), isError: result.isError === true };
  };
  return { client: connected.client, call };
}

const RATE =
  /\[GitHub rate limit \((core|search|code_search)\): \d+ of \d+ requests left; resets at \d\d:\d\d UTC \(in \d+ min\)\]$/;

describe.each(["2025-11-25", "2026-07-28"] as const)("the GitHub tools, protocol %s", (era) => {
  it("registers the tools that write only with allowWrite, annotated for what they do", async () => {
    const readOnly = await (await connect({}, era)).client.tools();
    expect(readOnly.map((t) => t.name)).toEqual([
      "get_file_contents",
      "get_issue",
      "get_pull_request",
      "list_issues",
      "list_pull_requests",
      "search_code",
      "search_issues",
      "search_repositories",
    ]);
    expect(readOnly.every((t) => t.annotations?.readOnlyHint === true && t.annotations.openWorldHint === true)).toBe(
      true,
    );
    const all = await (await connect({ allowWrite: true }, era)).client.tools();
    const hints = Object.fromEntries(all.map((t) => [t.name, t.annotations?.destructiveHint]));
    expect(hints).toMatchObject({
      create_issue: false,
      add_issue_comment: false,
      create_pull_request: false,
      create_pull_request_review: false,
      merge_pull_request: true,
    });
  });

  it("searches repositories, saying how many matched, which page this is, and the rate limit left", async () => {
    const { call } = await connect({ token: "ghp_reader" }, era);
    const result = await call("search_repositories", { query: "mcp", sort: "stars" });
    const lines = result.text.split("\n");
    expect(lines[0]).toBe('2 repositories match "mcp"');
    expect(lines[1]).toMatch(
      /^octocat\/mcp-tools ★1420 — Tools for the Model Context Protocol \(TypeScript, updated 2026-01-15\) https:\/\/github\.com\/octocat\/mcp-tools$/,
    );
    expect(lines.at(-2)).toBe("[page 1 of 1, 2 items (up to 30 per page); no more pages]");
    expect(lines.at(-1)).toMatch(RATE);
    expect(lines.at(-1)).toMatch(/\(search\): \d+ of 30 requests left/);
  });

  it("pages through a repository's issues by GitHub's Link header", async () => {
    const { call } = await connect({ token: "ghp_reader" }, era);
    const first = await call("list_issues", { owner: "octocat", repo: "Hello-World", perPage: 20 });
    expect(first.text).toContain("[page 1 of 3, 20 items (up to 20 per page); for more, call again with page: 2]");
    expect(first.text).toMatch(/#59 \[open\] Issue 59 — by ada/);
    expect(first.text).toMatch(/#55 \[pull request open\] Pull request 55/);
    const last = await call("list_issues", { owner: "octocat", repo: "Hello-World", perPage: 20, page: 3 });
    expect(last.text).toContain("[page 3 of 3, 19 items (up to 20 per page); no more pages]");
    const bugs = await call("list_issues", { owner: "octocat", repo: "Hello-World", labels: ["bug"] });
    expect(bugs.text).toMatch(/#7 \[open\] Login fails with a long password — by ada, 2 comments, labels: bug/);
  });

  it("reads an issue with its comments, saying when some are left out", async () => {
    const { call } = await connect({}, era);
    const full = await call("get_issue", { owner: "octocat", repo: "Hello-World", issue_number: 7 });
    expect(full.text).toContain("#7: Login fails with a long password\nState: open\nAuthor: ada, opened 2026-01-10");
    expect(full.text).toContain("Passwords over 72 bytes are cut by bcrypt.");
    expect(full.text).toContain("— grace on 2026-01-11:\nI can reproduce it with 80 characters.");
    const cut = await call("get_issue", { owner: "octocat", repo: "Hello-World", issue_number: 7, comments: 1 });
    expect(cut.text).toContain("[1 of 2 comments shown; ask for more with comments (up to 100)]");
  });

  it("reads files and directories; describes binary and oversized files", async () => {
    const { call } = await connect({}, era);
    const readme = await call("get_file_contents", { owner: "octocat", repo: "Hello-World", path: "README.md" });
    expect(readme.text).toMatch(
      /^octocat\/Hello-World\/README\.md \(32 bytes, blob 3d21ec5\) https:\/\/github\.com\/.*\n\n# Hello World\n\nHello, octocats\.\n/,
    );
    const top = await call("get_file_contents", { owner: "octocat", repo: "Hello-World" });
    expect(top.text).toContain("[file] README.md (32 bytes)\n[dir] src");
    const logo = await call("get_file_contents", {
      owner: "octocat",
      repo: "Hello-World",
      path: "logo.png",
      ref: "v1",
    });
    expect(logo.text).toContain(
      "A binary file; download it from https://raw.githubusercontent.com/octocat/Hello-World/v1/logo.png",
    );
    const video = await call("get_file_contents", { owner: "octocat", repo: "Hello-World", path: "video.bin" });
    expect(video.text).toContain("Too large to show here; download it from");
    const missing = await call("get_file_contents", { owner: "octocat", repo: "Hello-World", path: "nope.md" });
    expect(missing).toMatchObject({ isError: true });
    expect(missing.text).toBe(
      "Not found: octocat/Hello-World/nope.md. Check the names; a private repository also looks missing to a token that cannot see it (this request had no token).",
    );
  });

  it("reads a pull request with its files and whether it can be merged", async () => {
    const { call } = await connect({}, era);
    const pull = await call("get_pull_request", { owner: "octocat", repo: "Hello-World", pull_number: 10 });
    expect(pull.text).toContain(
      "#10: Pull request 10\nState: open; mergeable: no (dirty)\nBranches: octocat:feature-10 → main (head 6dcb09b)",
    );
    expect(pull.text).toContain("Files:\n  added src/login.js (+100 −0)\n  modified README.md (+20 −7)");
    const list = await call("list_pull_requests", { owner: "octocat", repo: "Hello-World", state: "all" });
    expect(list.text).toMatch(/#15 \[merged\] Pull request 15 \(octocat:feature-15 → main\)/);
  });

  it("searches issues, and says when GitHub's search timed out", async () => {
    const { call } = await connect({}, era);
    const slow = await call("search_issues", { query: "repo:octocat/Hello-World slow" });
    expect(slow.text.split("\n")[0]).toBe(
      '0 issues and pull requests match "repo:octocat/Hello-World slow" (GitHub\'s search timed out: the results may be incomplete)',
    );
    const login = await call("search_issues", { query: "login is:issue" });
    expect(login.text).toContain("#7 [open] Login fails with a long password");
  });

  it("searches code only with a token, as GitHub does", async () => {
    const anonymous = await connect({}, era);
    const refused = await anonymous.call("search_code", { query: "octocats" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^This needs a GitHub token, and the server has none\. Set GITHUB_TOKEN/);
    const { call } = await connect({ token: "ghp_reader" }, era);
    const found = await call("search_code", { query: "octocats" });
    expect(found.text).toContain(
      "octocat/Hello-World: README.md https://github.com/octocat/Hello-World/blob/main/README.md",
    );
    expect(found.text).toMatch(/\(code_search\): \d of 10 requests left/);
  });
});

describe("writing to GitHub", () => {
  it("opens an issue, comments, opens, reviews and merges a pull request with a token that may", async () => {
    const { call } = await connect({ token: "ghp_writer", allowWrite: true });
    const issue = await call("create_issue", {
      owner: "octocat",
      repo: "Hello-World",
      title: "Dark mode",
      labels: ["ui"],
    });
    expect(issue.text).toMatch(
      /^Opened issue #66: Dark mode\nhttps:\/\/github\.com\/octocat\/Hello-World\/issues\/66\n\[GitHub rate limit/,
    );
    expect(github.requests.at(-1)).toMatchObject({
      method: "POST",
      url: "/repos/octocat/Hello-World/issues",
      authorization: "token ghp_writer",
      body: { title: "Dark mode", labels: ["ui"] },
    });
    expect(
      (await call("add_issue_comment", { owner: "octocat", repo: "Hello-World", issue_number: 7, body: "On it." }))
        .text,
    ).toMatch(/^Commented on #7: .*#issuecomment-9001/);
    const pull = await call("create_pull_request", {
      owner: "octocat",
      repo: "Hello-World",
      title: "Login",
      head: "feature-login",
      base: "main",
    });
    expect(pull.text).toMatch(/^Opened pull request #66: Login/);
    const review = await call("create_pull_request_review", {
      owner: "octocat",
      repo: "Hello-World",
      pull_number: 5,
      event: "APPROVE",
    });
    expect(review.text).toMatch(/^Review APPROVED on #5:/);
    const merged = await call("merge_pull_request", {
      owner: "octocat",
      repo: "Hello-World",
      pull_number: 5,
      merge_method: "squash",
    });
    expect(merged.text).toMatch(/^Pull Request successfully merged \(#5, commit 6dcb09b\)/);
    expect(github.requests.at(-1)).toMatchObject({ method: "PUT", body: { merge_method: "squash" } });
  });

  it("reports what GitHub refuses: a token without permission, bad input, an unmergeable or moved pull request", async () => {
    const reader = await connect({ token: "ghp_reader", allowWrite: true });
    const forbidden = await reader.call("create_issue", { owner: "octocat", repo: "Hello-World", title: "x" });
    expect(forbidden.text).toBe(
      "GitHub refused a new issue in octocat/Hello-World (403 Resource not accessible by personal access token). The token needs: issues=write.",
    );
    const { call } = await connect({ token: "ghp_writer", allowWrite: true });
    const invalid = await call("create_pull_request", {
      owner: "octocat",
      repo: "Hello-World",
      title: "x",
      head: "main",
      base: "main",
    });
    expect(invalid.text).toBe(
      "GitHub refused the input for a pull request from main into main of octocat/Hello-World (422 Validation Failed; PullRequest head invalid).",
    );
    const conflicted = await call("merge_pull_request", { owner: "octocat", repo: "Hello-World", pull_number: 10 });
    expect(conflicted.text).toBe(
      "GitHub refused the merge of octocat/Hello-World pull request #10 (405 Pull Request is not mergeable).",
    );
    const moved = await call("merge_pull_request", {
      owner: "octocat",
      repo: "Hello-World",
      pull_number: 5,
      sha: "0".repeat(40),
    });
    expect(moved.text).toMatch(/\(409 Head branch was modified\. Review and try the merge again\.\)\.$/);
  });
});

describe("GitHub's limits and failures", () => {
  it("says when the rate limit is used up, when it resets, and that a token raises it", async () => {
    github.exhaust("anonymous");
    const { call } = await connect();
    const result = await call("get_issue", { owner: "octocat", repo: "Hello-World", issue_number: 1 });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^GitHub's rate limit is used up \(core: 0 of 60 left\); it resets at \d\d:\d\d UTC \(in (59|60) min\)\. Requests without a token share a small budget \(60 an hour\); set GITHUB_TOKEN for 5,000 an hour\.$/,
    );
  });

  it("says how long to wait after the secondary rate limit", async () => {
    const { call } = await connect({ token: "ghp_reader" });
    github.secondaryLimitNext();
    const result = await call("search_repositories", { query: "mcp" });
    expect(result.text).toBe(
      "GitHub's secondary rate limit was hit (You have exceeded a secondary rate limit. Please wait a few minutes before you try again.); wait 60 s before trying again.",
    );
  });

  it("reports a bad token, a server error, a timeout and an unreachable GitHub", async () => {
    const bad = await connect({ token: "ghp_revoked" });
    expect((await bad.call("list_issues", { owner: "octocat", repo: "Hello-World" })).text).toBe(
      "GitHub refused the token (401 Bad credentials): it is wrong, expired or revoked. Set a new GITHUB_TOKEN, or sign in again.",
    );
    const { call } = await connect({ token: "ghp_reader", timeoutMs: 300 });
    github.failNext(502, { message: "Server Error" });
    expect((await call("list_issues", { owner: "octocat", repo: "Hello-World" })).text).toBe(
      "GitHub failed (HTTP 502 Server Error); try again later.",
    );
    github.hangNext();
    expect((await call("list_issues", { owner: "octocat", repo: "Hello-World" })).text).toBe(
      "GitHub did not answer within the time limit (octocat/Hello-World's issues); try again later.",
    );
    const gone = await startFakeGitHub();
    await gone.close();
    const unreachable = await connect({ apiUrl: gone.url });
    expect((await unreachable.call("list_issues", { owner: "octocat", repo: "Hello-World" })).text).toBe(
      `Could not reach GitHub at ${gone.url}: ECONNREFUSED.`,
    );
  });

  it("sends the token only when there is one", async () => {
    const anonymous = await connect();
    await anonymous.call("get_issue", { owner: "octocat", repo: "Hello-World", issue_number: 2 });
    expect(github.requests.at(-1)?.authorization).toBeUndefined();
    const { call } = await connect({ token: "ghp_reader" });
    await call("get_issue", { owner: "octocat", repo: "Hello-World", issue_number: 2 });
    expect(github.requests.at(-1)?.authorization).toBe("token ghp_reader");
  });
});
