import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { githubServer } from "@mcpkit/servers/github";
import type { ElicitParams } from "mcpkit";
import { fileStorage, memoryStorage, type OAuthStorage } from "mcpkit/auth";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../serve/results.js";
import { type FakeGitHub, OAUTH_APP, startFakeGitHub } from "./fake-github.js";

// Without a token, a tool that needs one has the user sign in to GitHub: the OAuth web
// flow through mcpkit's OAuth client (PKCE, state, a loopback redirect), offered through
// URL-mode elicitation when the client supports it, else named in the tool's error.

let github: FakeGitHub;
let dir: string;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  github = await startFakeGitHub();
  dir = mkdtempSync(join(tmpdir(), "mcpkit-github-oauth-"));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The user's browser: follows GitHub's redirect back to the server's loopback listener. */
async function browse(url: string): Promise<void> {
  const landed = await fetch(url);
  expect(await landed.text()).toContain("Authorization finished");
}

async function connect(options: {
  storage?: OAuthStorage;
  era?: "2025-11-25" | "2026-07-28";
  urlElicitation?: (params: ElicitParams) => Promise<"accept" | "decline" | "cancel">;
  oauth?: boolean;
}) {
  const { server } = await githubServer({
    apiUrl: github.url,
    allowWrite: true,
    ...(options.oauth !== false && { oauth: { ...OAUTH_APP, storage: options.storage ?? memoryStorage() } }),
  });
  const ask = options.urlElicitation;
  const connected = await connectInMemory(server, {
    protocolVersion: options.era ?? "2025-11-25",
    ...(ask && {
      capabilities: { elicitation: { url: {} } },
      elicitation: async (params) => ({ action: await ask(params) }),
    }),
  });
  closers.push(connected.close);
  return connected.client;
}

const newIssue = { owner: "octocat", repo: "Hello-World", title: "From a signed-in user" };

describe.each(["2025-11-25", "2026-07-28"] as const)("signing in to GitHub, protocol %s", (era) => {
  it("asks through URL-mode elicitation, then acts with the token GitHub issued", async () => {
    const asked: ElicitParams[] = [];
    const client = await connect({
      era,
      urlElicitation: async (params) => {
        asked.push(params);
        await browse((params as { url: string }).url);
        return "accept";
      },
    });
    const result = await client.callTool("create_issue", newIssue);
    expect(textOf(result)).toMatch(/^Opened issue #66: From a signed-in user/);
    expect(asked).toHaveLength(1);
    const url = new URL((asked[0] as { url: string }).url);
    expect(url.origin + url.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: OAUTH_APP.clientId,
      response_type: "code",
      code_challenge_method: "S256",
      scope: "repo",
      redirect_uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
    });
    expect(asked[0]).toMatchObject({ mode: "url", message: "Sign in to GitHub so this server can act for you." });
    const token = github.issued.at(-1);
    expect(github.requests.at(-1)).toMatchObject({ method: "POST", authorization: `token ${token}` });
    // Signed in once: the next call needs no question.
    await client.callTool("add_issue_comment", { owner: "octocat", repo: "Hello-World", issue_number: 7, body: "+1" });
    expect(asked).toHaveLength(1);
  });

  it("goes no further when the user declines", async () => {
    const client = await connect({ era, urlElicitation: async () => "decline" });
    const result = await client.callTool("create_issue", newIssue);
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe("GitHub sign-in was declined; the tool needs a token.");
  });
});

describe("signing in without URL elicitation", () => {
  it("names the sign-in URL in the tool's error; once the user has been there, the tool works", async () => {
    const client = await connect({});
    const first = await client.callTool("create_issue", newIssue);
    expect(first.isError).toBe(true);
    const url = /sign in to GitHub in a browser at (\S+) and then call the tool again/i.exec(textOf(first))?.[1];
    expect(url).toMatch(new RegExp(`^${github.url}/login/oauth/authorize\\?`));
    await browse(url as string);
    // Back from GitHub, the sign-in may still be fetching the token: the call waits for it.
    expect(textOf(await client.callTool("create_issue", newIssue))).toMatch(/^Opened issue #66/);
  });

  it("says how to set a token when no OAuth app is configured", async () => {
    const client = await connect({ oauth: false, urlElicitation: async () => "accept" });
    const result = await client.callTool("create_issue", newIssue);
    expect(textOf(result)).toMatch(
      /^This needs a GitHub token, and the server has none\. Set GITHUB_TOKEN .* or set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET/,
    );
  });

  it("keeps the sign-in in a 0600 file, so a restarted server does not ask again", async () => {
    const file = join(dir, "github-oauth.json");
    let asked = 0;
    const first = await connect({
      storage: fileStorage(file),
      urlElicitation: async (params) => {
        asked++;
        await browse((params as { url: string }).url);
        return "accept";
      },
    });
    await first.callTool("create_issue", newIssue);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const restarted = await connect({ storage: fileStorage(file), urlElicitation: async () => "decline" });
    expect(textOf(await restarted.callTool("create_issue", newIssue))).toMatch(/^Opened issue #66/);
    expect(asked).toBe(1);
  });

  it("refuses a callback that does not carry the sign-in's state", async () => {
    const client = await connect({
      urlElicitation: async (params) => {
        const authorize = new URL((params as { url: string }).url);
        const back = new URL(authorize.searchParams.get("redirect_uri") as string);
        back.searchParams.set("code", "stolen");
        back.searchParams.set("state", "forged");
        await fetch(back);
        return "accept";
      },
    });
    const result = await client.callTool("create_issue", newIssue);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^GitHub sign-in failed: .*state/i);
  });
});
