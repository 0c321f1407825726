import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "./fake-github.js";

// examples/github as its README tells it: the client starts the example server, searches
// repositories and pages through issues; here against a loopback GitHub (GITHUB_API_URL).

// Each test starts the real binary (some several times): generous, since a loaded machine starts Node slowly.
vi.setConfig({ testTimeout: 60_000 });

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL("../../examples/github/client.mjs", import.meta.url));
let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
  github.addToken("ghp_example", { write: false });
});
afterAll(() => github.close());

describe("examples/github", () => {
  it("searches repositories and pages through issues, reporting pages and the rate limit", async () => {
    const env = { PATH: process.env.PATH ?? "", GITHUB_TOKEN: "ghp_example", GITHUB_API_URL: github.url };
    const { stdout } = await run(process.execPath, [CLIENT, "mcp", "octocat/Hello-World"], { env, timeout: 45_000 });
    expect(stdout).toMatch(/^Tools: get_file_contents, get_issue, .*search_repositories\n/);
    expect(stdout).toContain('Repositories about "mcp":\n2 repositories match "mcp"\noctocat/mcp-tools ★1420');
    expect(stdout).toContain(
      "Open issues of octocat/Hello-World, page 1:\noctocat/Hello-World: open issues\n#59 [open] Issue 59",
    );
    expect(stdout).toContain("[page 2 of 20, 3 items (up to 3 per page); for more, call again with page: 3]");
    expect(stdout).toMatch(/\[GitHub rate limit \(core\): \d+ of 5000 requests left; resets at/);
    expect(github.requests.at(-1)?.authorization).toBe("token ghp_example");
  });

  it("reports GitHub's refusal on stderr with exit code 1", async () => {
    const env = { PATH: process.env.PATH ?? "", GITHUB_TOKEN: "ghp_unknown", GITHUB_API_URL: github.url };
    const failed = await run(process.execPath, [CLIENT], { env, timeout: 45_000 }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain("GitHub refused the token (401 Bad credentials)");
  });
});
