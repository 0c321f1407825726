import { memoryStorage } from "mcpkit/auth";
import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { UsageError } from "../options/usage-error.js";
import { githubServer } from "./index.js";

// The factory, in this process, with no request to GitHub: how its options choose whom it
// acts as. The tools, the sign-in and the command are tested against a loopback GitHub in
// test/github.

describe("githubServer", () => {
  it("acts with a token when given one, read-only unless told", async () => {
    const github = await githubServer({ token: "ghp_x" });
    expect(github.summary).toBe(
      "api: https://api.github.com\nauth: a token from the environment\nwrites: off (read-only)",
    );
    const { client, close } = await connectInMemory(github.server);
    try {
      const tools = (await client.tools()).map((t) => t.name);
      expect(tools).toContain("search_repositories");
      expect(tools).not.toContain("create_issue");
    } finally {
      await close();
      await github.close();
    }
  });

  it("lets people sign in to the OAuth app its client ID and secret name", async () => {
    const github = await githubServer({
      oauthClientId: "Iv1.app",
      oauthClientSecret: "secret",
      oauthStorage: memoryStorage(),
      allowWrite: true,
      apiUrl: "https://github.example.com/api/v3",
    });
    expect(github.summary).toBe(
      "api: https://github.example.com/api/v3\nauth: no token yet: a tool that needs one asks the user to sign in\nwrites: allowed",
    );
    await github.close();
  });

  it("refuses an OAuth app given half, and one on a node of a cluster", async () => {
    await expect(githubServer({ oauthClientId: "Iv1.app" })).rejects.toThrow(
      new UsageError("GitHub sign-in needs both GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET"),
    );
    await expect(githubServer({ oauthClientId: "Iv1.app", oauthClientSecret: "secret", cluster: {} })).rejects.toThrow(
      /a cluster node needs `token` or `perPerson`/,
    );
  });

  it("acts for each person with their own sign-in behind the authorization server", async () => {
    const github = await githubServer({ perPerson: true, token: "ignored", cluster: {} });
    expect(github.summary).toContain("auth: each person's own GitHub sign-in, through the authorization server");
    await github.close();
  });
});
