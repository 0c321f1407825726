import { memoryStorage, OAuthClient, type StoredTokens } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { perTestAuthorizationServer, protectedMcp } from "./helpers.js";

// The checks an OAuth client makes on the authorization server's side of the flow. Each
// test fails when its check is taken out of the client (docs/security.md, mutation testing).

const fixture = perTestAuthorizationServer();

function server() {
  const s = createServer({ name: "vault", version: "1" });
  s.tool("whoami", { scopes: ["tools:read"] }, (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`);
  return s;
}

/** The user's browser: follows the authorization server's approval back to the redirect URI. */
const browser = async (authorizationUrl: URL) => {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  return new URL(response.headers.get("location") as string);
};

async function connect(url: string, oauth: OAuthClient) {
  const client = new Client({ name: "checks-test", version: "1" });
  fixture.closers.push(() => client.close());
  await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
  return client;
}

describe("the OAuth client's checks", () => {
  it("refuses an authorization server that does not offer PKCE with S256, before sending the user anywhere", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    as.metadata = { code_challenge_methods_supported: ["plain"] };
    const redirects: URL[] = [];
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: async (url) => {
        redirects.push(url);
        return browser(url);
      },
    });
    await expect(connect(mcp.url, oauth)).rejects.toThrow(/PKCE with S256/);
    expect(redirects).toEqual([]);
    expect(as.authorizations).toEqual([]);
  });

  it("refuses an authorization response whose state is not the one it sent, and redeems no code", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      // An attacker's callback: a valid code, but the state of another login.
      redirect: async (url) => {
        const back = await browser(url);
        back.searchParams.set("state", "forged-state");
        return back;
      },
    });
    await expect(connect(mcp.url, oauth)).rejects.toThrow(/state/i);
    expect(as.authorizations).toHaveLength(1);
    expect(as.grants).toEqual([]);
  });

  it("names the MCP server as the resource (RFC 8707) when it refreshes a token", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
      storage,
    });
    const client = await connect(mcp.url, oauth);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);

    // The stored token has expired: the next call refreshes it first.
    const tokens = (await oauth.tokens()) as StoredTokens;
    await storage.set(`tokens ${mcp.url}`, { ...tokens, expires_at: Date.now() - 1000 });
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);

    expect(as.grants).toEqual(["authorization_code", "refresh_token"]);
    const refresh = as.tokenRequests[1] as URLSearchParams;
    expect(refresh.get("resource")).toBe(mcp.url);
  });

  it("registers once, and reuses the registration after a failed attempt and for a new login", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    let userClosedTheBrowser = true;
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: async (url) => {
        if (userClosedTheBrowser) throw new Error("the user closed the browser");
        return browser(url);
      },
      storage,
    });
    await expect(connect(mcp.url, oauth)).rejects.toThrow(/closed the browser/);
    userClosedTheBrowser = false;
    await connect(mcp.url, oauth);
    expect(as.registered).toHaveLength(1);

    // Another process with the same storage, whose tokens are gone: it logs in again as the same client.
    await storage.delete(`tokens ${mcp.url}`);
    const again = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
      storage,
    });
    await connect(mcp.url, again);
    expect(as.registered).toHaveLength(1);
    expect(as.authorizations.map((a) => a.get("client_id"))).toEqual([as.registered[0], as.registered[0]]);
  });

  it("sends exactly one Authorization header, its own, even when the transport was given one", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const sent: (string | null)[] = [];
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
      fetch: (input, init) => {
        const request = new Request(input, init);
        if (request.url === mcp.url) sent.push(request.headers.get("authorization"));
        return fetch(request);
      },
    });
    const client = new Client({ name: "checks-test", version: "1" });
    closers.push(() => client.close());
    await client.connect(
      streamableHttpClientTransport(mcp.url, {
        auth: oauth,
        headers: { Authorization: "Bearer configured-elsewhere" },
      }),
    );
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    const token = (await oauth.tokens())?.access_token;
    // Before any login the configured header is what the caller asked for; once the client
    // holds a token, that token replaces it (never "Bearer a, Bearer b").
    expect(sent[0]).toBe("Bearer configured-elsewhere");
    expect(sent.length).toBeGreaterThan(2);
    for (const value of sent.slice(1)) expect(value).toBe(`Bearer ${token}`);
  });
});
