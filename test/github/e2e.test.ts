import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  closeServed,
  mcpkitOverHttp,
  mcpkitOverStdio,
  sdkOverHttp,
  sdkOverStdio,
  serveHttp,
  textOf,
} from "../serve/helpers.js";
import { type FakeGitHub, OAUTH_APP, startFakeGitHub } from "./fake-github.js";

// `mcpkit serve github` end to end against a loopback GitHub: the real binary over stdio
// and Streamable HTTP, driven by mcpkit's Client and the official SDK's, with a token from
// the environment, and with a sign-in through URL-mode elicitation.

// Each test starts the real binary (some several times): generous, since a loaded machine starts Node slowly.
vi.setConfig({ testTimeout: 60_000 });

let github: FakeGitHub;
let config: string;
beforeAll(async () => {
  github = await startFakeGitHub();
  github.addToken("ghp_e2e", { write: true });
  config = mkdtempSync(join(tmpdir(), "mcpkit-github-e2e-"));
});
afterEach(closeServed);
afterAll(async () => {
  await github.close();
  rmSync(config, { recursive: true, force: true });
});

const api = () => ["--api-url", github.url];
const withToken = () => ({ GITHUB_TOKEN: "ghp_e2e" });

describe("mcpkit serve github over stdio", () => {
  it("acts with the token from the environment, through mcpkit's client", async () => {
    const client = await mcpkitOverStdio("github", api(), { env: withToken() });
    expect(client.serverInfo?.name).toBe("mcpkit-github");
    expect(client.instructions).toContain("acting with a token from the environment");
    const issues = await client.callTool("list_issues", { owner: "octocat", repo: "Hello-World", perPage: 5 });
    expect(textOf(issues)).toContain("[page 1 of 12, 5 items (up to 5 per page); for more, call again with page: 2]");
    expect(github.requests.at(-1)?.authorization).toBe("token ghp_e2e");
  });

  it("serves the official SDK's client, errors as tool errors", async () => {
    const client = await sdkOverStdio("github", api(), { env: withToken() });
    const { tools } = await client.listTools();
    expect(tools.some((t) => t.name === "create_issue")).toBe(false);
    const file = await client.callTool({
      name: "get_file_contents",
      arguments: { owner: "octocat", repo: "Hello-World", path: "src/app.js" },
    });
    expect(textOf(file)).toContain("console.log('hello');");
    const missing = await client.callTool({
      name: "get_issue",
      arguments: { owner: "octocat", repo: "nope", issue_number: 1 },
    });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^Not found: octocat\/nope issue #1\./);
  });

  it("signs the user in through URL-mode elicitation and keeps the sign-in in the config folder", async () => {
    const client = await mcpkitOverStdio("github", [...api(), "--allow-write"], {
      env: {
        GITHUB_OAUTH_CLIENT_ID: OAUTH_APP.clientId,
        GITHUB_OAUTH_CLIENT_SECRET: OAUTH_APP.clientSecret,
        MCPKIT_CONFIG_DIR: config,
      },
      capabilities: { elicitation: { url: {} } },
      elicitation: async (params) => {
        await (await fetch((params as { url: string }).url)).text();
        return { action: "accept" };
      },
    });
    expect(client.instructions).toContain("a tool that needs one asks the user to sign in");
    const result = await client.callTool("create_issue", {
      owner: "octocat",
      repo: "Hello-World",
      title: "Signed in",
    });
    expect(textOf(result)).toMatch(/^Opened issue #66: Signed in/);
    expect(existsSync(join(config, "github-oauth.json"))).toBe(true);
  });
});

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "mcpkit serve github over HTTP, protocol %s",
  (protocolVersion) => {
    it("writes with --allow-write, the merge annotated destructive", async () => {
      const served = await serveHttp("github", [...api(), "--allow-write"], withToken());
      expect(served.stderr()).toContain("writes: allowed");
      const client = await mcpkitOverHttp(served.url, { protocolVersion });
      const merge = (await client.tools()).find((t) => t.name === "merge_pull_request");
      expect(merge?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      const comment = await client.callTool("add_issue_comment", {
        owner: "octocat",
        repo: "Hello-World",
        issue_number: 7,
        body: "Thanks",
      });
      expect(textOf(comment)).toMatch(/^Commented on #7/);
    });
  },
);

describe("the official SDK's client over HTTP", () => {
  it("searches GitHub through mcpkit serve github", async () => {
    const served = await serveHttp("github", api(), withToken());
    const client = await sdkOverHttp(served.url);
    const found = await client.callTool({ name: "search_repositories", arguments: { query: "weather" } });
    expect(textOf(found)).toContain("octocat/weather-mcp ★12");
  });
});

describe("mcpkit serve github's options", () => {
  it("warns when it lends its GitHub identity to the network without authentication", async () => {
    const served = await serveHttp("github", [...api(), "--host", "0.0.0.0"], withToken());
    expect(served.stderr()).toContain(
      "mcpkit: warning: --host 0.0.0.0 serves its GitHub identity to the network without authentication (see --auth-server)",
    );
  });

  it("refuses half an OAuth app, a bad --api-url, and its options on other servers", async () => {
    await expect(serveHttp("github", api(), { GITHUB_OAUTH_CLIENT_ID: "x" })).rejects.toThrow(
      /GitHub sign-in needs both GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET/,
    );
    await expect(serveHttp("github", ["--api-url", "ftp://x"])).rejects.toThrow(/--api-url must be an http\(s\) URL/);
    await expect(serveHttp("weather", ["--allow-write"])).rejects.toThrow(
      /--allow-write applies to the workspace and github servers only/,
    );
  });
});
