import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { memoryStorage, OAuthClient, type StoredTokens } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { perTestAuthorizationServer, protectedMcp } from "./helpers.js";

// What the OAuth client trusts and with whom it shares what: metadata must name the server
// it is for, a refresh token goes only to the authorization server that issued it, a
// registration is for one redirect URI, and a missing piece is a clear error rather than
// a guess. Each test fails when the check it names is taken out (docs/mutation-testing.md).

const fixture = perTestAuthorizationServer();

function server() {
  const s = createServer({ name: "vault", version: "1" });
  s.tool("whoami", { scopes: ["tools:read"] }, (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`);
  return s;
}

const browser = async (authorizationUrl: URL) => {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  return new URL(response.headers.get("location") as string);
};

async function connect(url: string, oauth: OAuthClient) {
  const client = new Client({ name: "trust-test", version: "1" });
  fixture.closers.push(() => client.close());
  await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
  return client;
}

/** A server on 127.0.0.1 answering the given paths with JSON (404 elsewhere). */
async function documents(routes: (base: string) => Record<string, unknown>): Promise<string> {
  let base = "";
  const http: Server = createHttpServer((req, res) => {
    const body = routes(base)[new URL(req.url ?? "/", base).pathname];
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
    res.end(body === undefined ? "{}" : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  fixture.closers.push(() => new Promise((resolve) => http.close(() => resolve())));
  return base;
}

const login = (serverUrl: string, extra: Partial<ConstructorParameters<typeof OAuthClient>[0]> = {}) =>
  new OAuthClient({ serverUrl, redirectUri: "http://127.0.0.1:9/callback", redirect: browser, ...extra });

describe("protected resource metadata (RFC 9728 §3.3)", () => {
  it("is refused when it names another resource: another path, another origin, or a path that only starts alike", async () => {
    for (const named of ["/other", "http://127.0.0.2:1/mcp", "/mc"]) {
      const base = await documents((b) => ({
        "/.well-known/oauth-protected-resource/mcp": {
          resource: named.startsWith("/") ? `${b}${named}` : named,
          authorization_servers: [fixture.as.issuer],
        },
      }));
      await expect(login(`${base}/mcp`).authorize()).rejects.toMatchObject({
        code: "resource_mismatch",
        message: expect.stringContaining(`is for ${named.startsWith("/") ? `${base}${named}` : named}, not for`),
      });
    }
  });

  it("is accepted for the server's origin or a parent path, and skipped when it is not a document for any resource", async () => {
    const base = await documents((b) => ({
      "/.well-known/oauth-protected-resource/a/mcp": { resource: `${b}/a`, authorization_servers: [b] },
      "/.well-known/oauth-protected-resource/b/mcp": [1, 2],
      "/.well-known/oauth-protected-resource": { resource: b, authorization_servers: [b] },
    }));
    // Found for /a/mcp (a parent path); for /b/mcp the path document is not one, the root one is.
    for (const path of ["/a/mcp", "/b/mcp"]) {
      await expect(login(`${base}${path}`).authorize()).rejects.toMatchObject({
        code: "no_metadata",
        message: `No authorization server metadata at ${base}/`,
      });
    }
  });
});

describe("the authorization server", () => {
  it("is refused when its metadata names another issuer (RFC 8414 §3.3)", async () => {
    const base = await documents((b) => ({
      "/.well-known/oauth-protected-resource/mcp": { resource: `${b}/mcp`, authorization_servers: [b] },
      "/.well-known/oauth-authorization-server": {
        issuer: "https://evil.example",
        authorization_endpoint: "https://evil.example/authorize",
        token_endpoint: "https://evil.example/token",
      },
    }));
    await expect(login(`${base}/mcp`).authorize()).rejects.toMatchObject({
      code: "invalid_metadata",
      message: expect.stringContaining(`is not valid for ${base}/`),
    });
  });

  it("must publish metadata when the resource names it: no guessing its endpoints", async () => {
    const base = await documents((b) => ({
      "/.well-known/oauth-protected-resource/mcp": { resource: `${b}/mcp`, authorization_servers: [`${b}/issuer`] },
    }));
    await expect(login(`${base}/mcp`).authorize()).rejects.toMatchObject({
      code: "no_metadata",
      message: `No authorization server metadata at ${base}/issuer`,
    });
  });

  it("without an authorization endpoint, or without a way to register, is refused before the user is sent anywhere", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const redirects: URL[] = [];
    const track = {
      redirect: async (url: URL) => {
        redirects.push(url);
        return browser(url);
      },
    };
    as.metadata = { authorization_endpoint: null };
    await expect(connect(mcp.url, login(mcp.url, track))).rejects.toThrow(/has no authorization endpoint/);
    as.metadata = { registration_endpoint: null };
    await expect(connect(mcp.url, login(mcp.url, track))).rejects.toThrow(/No way to register with/);
    expect(redirects).toEqual([]);
    expect(as.registered).toEqual([]);
  });
});

describe("the client's own setup", () => {
  it("says what is missing when it has no redirect handler for a user's login", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const oauth = new OAuthClient({ serverUrl: mcp.url, redirectUri: "http://127.0.0.1:9/callback" });
    await expect(connect(mcp.url, oauth)).rejects.toThrow(/configure redirectUri and a redirect handler/);
  });

  it("uses pre-registered credentials for their issuer instead of registering", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    // Registered once by hand, then given to the client as pre-registered credentials.
    const first = login(mcp.url);
    await connect(mcp.url, first);
    const clientId = as.registered[0] as string;
    for (const credentials of [
      { [as.issuer]: { client_id: clientId } },
      (issuer: string) => (issuer === as.issuer ? { client_id: clientId } : undefined),
    ]) {
      await connect(mcp.url, login(mcp.url, { credentials }));
      expect(as.registered).toEqual([clientId]);
      expect(as.authorizations.at(-1)?.get("client_id")).toBe(clientId);
    }
  });

  it("registers again for a new redirect URI, and keeps its registration for the same one", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    await connect(mcp.url, login(mcp.url, { storage }));
    await storage.delete(`tokens ${mcp.url}`);
    await connect(mcp.url, login(mcp.url, { storage }));
    expect(as.registered).toHaveLength(1);
    await storage.delete(`tokens ${mcp.url}`);
    await connect(mcp.url, login(mcp.url, { storage, redirectUri: "http://127.0.0.1:10/callback" }));
    expect(as.registered).toHaveLength(2);
  });
});

describe("refresh tokens", () => {
  it("go only to the authorization server that issued them", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    const foreign: StoredTokens = {
      access_token: "expired-elsewhere",
      token_type: "Bearer",
      refresh_token: "refresh-from-elsewhere",
      issuer: "https://elsewhere.example",
      obtained_at: Date.now() - 7_200_000,
      expires_at: Date.now() - 3_600_000,
    };
    await storage.set(`tokens ${mcp.url}`, foreign);
    const client = await connect(mcp.url, login(mcp.url, { storage }));
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(as.grants).toEqual(["authorization_code"]);
    expect(as.tokenRequests.map((form) => form.get("refresh_token"))).not.toContain("refresh-from-elsewhere");
  });

  it("are used ahead of expiry, and a token about to expire without one is still sent", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    const client = await connect(mcp.url, login(mcp.url, { storage }));
    const key = `tokens ${mcp.url}`;
    const held = (await storage.get(key)) as StoredTokens;
    // 30 s left of a long life: inside the 60 s refresh margin.
    await storage.set(key, { ...held, obtained_at: undefined, expires_at: Date.now() + 30_000 });
    await client.callTool("whoami");
    expect(as.grants).toEqual(["authorization_code", "refresh_token"]);
    const { refresh_token: _none, ...withoutRefresh } = (await storage.get(key)) as StoredTokens;
    await storage.set(key, { ...withoutRefresh, obtained_at: undefined, expires_at: Date.now() + 30_000 });
    await client.callTool("whoami");
    expect(as.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(as.authorizations).toHaveLength(1);
  });

  it("refused for a reason other than invalid_grant or invalid_client fail the call instead of starting a login", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    const refused: unknown[] = [];
    const client = await connect(mcp.url, login(mcp.url, { storage, onRefreshRefused: (e) => refused.push(e) }));
    const key = `tokens ${mcp.url}`;
    await storage.set(key, { ...((await storage.get(key)) as StoredTokens), expires_at: Date.now() - 1 });
    as.refreshFailure = { status: 400, error: "invalid_scope" };
    await expect(client.callTool("whoami")).rejects.toMatchObject({
      data: { oauthError: "refresh_failed" },
    });
    expect(refused).toEqual([]);
    expect(as.authorizations).toHaveLength(1);
  });
});
