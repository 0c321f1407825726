import { githubServer } from "@mcpkit/servers/github";
import { memoryStorage, OAuthClient, upstreamPreset } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../authorization-server/browser.js";
import { type Harness, REDIRECT, startHarness, statusOf } from "../authorization-server/harness.js";
import { type FakeGitHub, OAUTH_APP, startFakeGitHub } from "./fake-github.js";

// The GitHub server behind mcpkit's authorization server, with GitHub as the identity
// provider (the github preset, pointed at a loopback stand-in for GitHub): each person signs
// in at GitHub through the authorization server, and the tools act with that person's own
// GitHub token, which the authorization server keeps; the MCP client never holds it.

let github: FakeGitHub;
let h: Harness;
beforeAll(async () => {
  github = await startFakeGitHub();
  const { server } = await githubServer({ apiUrl: github.url, allowWrite: true, perPerson: true });
  h = await startHarness({
    server,
    upstream: upstreamPreset("github", {
      ...OAUTH_APP,
      scopes: ["repo", "read:user"],
      endpoints: {
        authorizationEndpoint: `${github.url}/login/oauth/authorize`,
        tokenEndpoint: `${github.url}/login/oauth/access_token`,
        userEndpoint: `${github.url}/user`,
      },
    }),
  });
});
afterAll(async () => {
  await h?.close();
  await github?.close();
});

describe("serve github behind the authorization server", () => {
  it("acts with the person's own GitHub sign-in, which never reaches the MCP client", async () => {
    const browser = new Browser();
    const storage = memoryStorage();
    const oauth = new OAuthClient({
      serverUrl: h.resource,
      storage,
      redirectUri: REDIRECT,
      redirect: async (url) => (await browser.authorize(url.href, { until: REDIRECT })).callback as URL,
    });
    const client = new Client({ name: "github-behind-as", version: "1" });
    await client.connect(streamableHttpClientTransport(h.resource, { auth: oauth }));
    try {
      // The person signed in at GitHub (the consent page named them by their GitHub login).
      expect(browser.page).toContain("ada via GitHub");
      const created = await client.callTool("create_issue", { owner: "octocat", repo: "Hello-World", title: "As Ada" });
      expect(created.isError).toBeFalsy();
      const issued = github.issued.at(-1) as string;
      expect(issued).toMatch(/^gho_/);
      const post = github.requests.find((r) => r.method === "POST" && r.url.endsWith("/issues"));
      expect(post?.authorization).toMatch(new RegExp(`^(token|bearer) ${issued}$`, "i"));
      // No passthrough: the client holds the authorization server's token, and GitHub's is refused at /mcp.
      const stored = JSON.stringify(await storage.get(`tokens ${h.resource}`));
      expect(stored).not.toContain(issued);
      expect(await statusOf(h.resource, { authorization: `Bearer ${issued}` })).toBe(401);
    } finally {
      await client.close();
    }
  });

  it("refuses to act without the person's sign-in, rather than fall back on an identity of its own", async () => {
    const { server } = await githubServer({
      apiUrl: github.url,
      allowWrite: true,
      perPerson: true,
      token: "server-token",
    });
    const { connectInMemory } = await import("mcpkit/testing");
    const connected = await connectInMemory(server);
    try {
      const result = await connected.client.callTool("create_issue", { owner: "o", repo: "r", title: "t" });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("each person's own GitHub sign-in");
      expect(github.requests.some((r) => r.authorization?.includes("server-token"))).toBe(false);
    } finally {
      await connected.close();
    }
  });
});
