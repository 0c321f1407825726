import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileStorage, OAuthClient, type OAuthError, parseBearerChallenge } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./authorization-server.js";
import { protectedMcp } from "./helpers.js";
import { startIdentityProvider } from "./identity-provider.js";

let as: TestAuthorizationServer;
let closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  as = await startAuthorizationServer();
  closers = [() => as.close()];
});
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.reverse()) await close().catch(() => {});
});

function server() {
  const s = createServer({ name: "vault", version: "1" });
  s.tool("whoami", { scopes: ["tools:read"] }, (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`);
  s.tool("rotate_keys", { scopes: ["tools:admin"] }, () => "rotated");
  return s;
}

/** The user's browser: follows the authorization server's approval back to the redirect URI. */
const browser = async (authorizationUrl: URL) => {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  return new URL(response.headers.get("location") as string);
};

async function connect(url: string, oauth: OAuthClient, protocolVersion?: "2025-11-25" | "2026-07-28") {
  const client = new Client({ name: "login-test", version: "1", ...(protocolVersion && { protocolVersion }) });
  await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
  closers.push(() => client.close());
  return client;
}

describe.each(["2025-11-25", "2026-07-28"] as const)("authorization end to end (%s)", (protocolVersion) => {
  it("logs in, calls a tool, and refreshes an expired token without the user", async () => {
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const redirects: URL[] = [];
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: async (url) => {
        redirects.push(url);
        return browser(url);
      },
    });
    as.tokenLifetime = 2; // seconds: the token expires during the test
    const client = await connect(mcp.url, oauth, protocolVersion);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(redirects).toHaveLength(1);
    const authorization = redirects[0] as URL;
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("resource")).toBe(mcp.url);
    // The challenge's scope, plus offline_access for a refresh token.
    expect(authorization.searchParams.get("scope")).toBe("tools:read offline_access");
    expect(as.grants, JSON.stringify(as.grants)).toEqual(["authorization_code"]);

    // 2.1 s pass on every clock in this process (client, resource server, authorization
    // server); timers stay real, so the HTTP exchanges run as usual.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2100 });
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(as.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(redirects).toHaveLength(1); // no user action for the refresh
  });

  it("rejects the call with the cause when a refresh fails for a passing reason, and sends nobody to log in", async () => {
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const redirects: URL[] = [];
    const refused: unknown[] = [];
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: async (url) => {
        redirects.push(url);
        return browser(url);
      },
      onRefreshRefused: (error) => refused.push(error),
    });
    as.tokenLifetime = 2;
    const client = await connect(mcp.url, oauth, protocolVersion);
    await client.callTool("whoami");
    as.refreshFailure = { status: 503, error: "temporarily_unavailable" };
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2100 });
    // The transport answers the request with a typed error naming the OAuth step and its cause.
    await expect(client.callTool("whoami")).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining("Refreshing the access token failed: The refresh token request failed"),
      data: { reason: "authorization-failed", oauthError: "refresh_failed" },
    });
    expect(redirects).toHaveLength(1);
    expect(refused).toEqual([]);

    // A refresh token the server refuses for good: the caller is told why, then a new login.
    as.refreshFailure = { status: 400, error: "invalid_grant" };
    vi.setSystemTime(Date.now() + 2100);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(refused).toHaveLength(1);
    expect(String((refused[0] as OAuthError).message)).toContain("invalid_grant");
    expect(redirects).toHaveLength(2);

    // So is one bound to a DPoP key the client no longer holds (RFC 9449 §5): no proof will ever do.
    as.refreshFailure = { status: 400, error: "invalid_dpop_proof" };
    vi.setSystemTime(Date.now() + 2100);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(refused).toHaveLength(2);
    expect(redirects).toHaveLength(3);
  });

  it("steps up to the scope a tool needs, once, and gives up when the server keeps refusing", async () => {
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
    });
    const client = await connect(mcp.url, oauth, protocolVersion);
    expect((await client.callTool("rotate_keys")).content).toEqual([{ type: "text", text: "rotated" }]);
    const scopes = as.authorizations.map((a) => a.get("scope")?.split(" ").sort());
    expect(scopes.at(-1)).toEqual(["offline_access", "tools:admin", "tools:read"]);

    // An authorization server that never grants the scope: a bounded number of attempts.
    const stubborn = await startAuthorizationServer();
    closers.push(() => stubborn.close());
    stubborn.grantScopes = "tools:read";
    const mcp2 = await protectedMcp(server(), stubborn);
    closers.push(mcp2.close);
    const oauth2 = new OAuthClient({
      serverUrl: mcp2.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
      maxStepUps: 2,
    });
    const client2 = await connect(mcp2.url, oauth2, protocolVersion);
    await expect(client2.callTool("rotate_keys")).rejects.toThrow();
    expect(stubborn.authorizations.length).toBeLessThanOrEqual(3); // first login + 2 step-ups
  });
});

describe("machine authorization (client credentials)", () => {
  it("gets a token for the MCP server as itself, with the challenge's scope and no user", async () => {
    as.machineClients.set("svc-backup", "p@ss:word");
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      machine: { client_id: "svc-backup", client_secret: "p@ss:word" },
    });
    const client = await connect(mcp.url, oauth);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are svc-backup" }]);
    expect(as.grants).toEqual(["client_credentials"]);
    expect((await oauth.tokens())?.scope).toBe("tools:read");
  });
});

describe("enterprise-managed authorization", () => {
  async function enterpriseSetup() {
    const idp = await startIdentityProvider();
    closers.push(() => idp.close());
    as.trustIdp = { issuer: idp.issuer, key: idp.jagKey, clientId: idp.audienceClientId, clientSecret: "s3cret" };
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const oauth = (subject: string) =>
      new OAuthClient({
        serverUrl: mcp.url,
        enterprise: {
          idpTokenEndpoint: idp.tokenEndpoint,
          idpIssuer: idp.issuer,
          idpClientId: idp.clientId,
          idToken: () => idp.idToken(subject),
          client_id: idp.audienceClientId,
          client_secret: "s3cret",
        },
      });
    return { idp, mcp, oauth };
  }

  it("trades the SSO ID token for an ID-JAG at the IdP, and the ID-JAG for an access token, with no redirect", async () => {
    const { idp, mcp, oauth } = await enterpriseSetup();
    const client = await connect(mcp.url, oauth("employee-7"));
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are employee-7" }]);
    expect(as.authorizations).toHaveLength(0);
    expect(as.grants).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
    const exchange = idp.exchanges[0] as URLSearchParams;
    expect(Object.fromEntries(exchange)).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: as.issuer,
      resource: mcp.url,
      client_id: idp.clientId,
    });
  });

  it("reports the IdP's refusal, and never falls back to asking the user", async () => {
    const { idp, mcp, oauth } = await enterpriseSetup();
    idp.denied.add("contractor-3");
    const client = new Client({ name: "login-test", version: "1" });
    closers.push(() => client.close());
    await expect(
      client.connect(streamableHttpClientTransport(mcp.url, { auth: oauth("contractor-3") })),
    ).rejects.toThrow(
      "needs authorization, which failed: The token exchange at the enterprise IdP failed: access_denied (contractor-3 may not use this server)",
    );
    expect(as.grants).toEqual([]);
    expect(as.authorizations).toHaveLength(0);
  });
});

describe("onSignInEnd: when a sign-in the user was sent to is over", () => {
  it("is told once the tokens are stored, and with the error when the authorization server sends one back", async () => {
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const ends: { error?: unknown; token: Promise<string | undefined> }[] = [];
    let user: (authorization: URL) => Promise<URL> = browser;
    const oauth: OAuthClient = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: (url) => user(url),
      onSignInEnd: (outcome) => ends.push({ ...outcome, token: oauth.accessToken() }),
    });
    const client = await connect(mcp.url, oauth, "2025-11-25");
    expect(ends).toHaveLength(1);
    expect(ends[0]?.error).toBeUndefined();
    // Stored by then: the requests that waited on the sign-in go again with the token.
    expect(await ends[0]?.token).toEqual(expect.any(String));

    // The next sign-in is declined: the authorization server sends the user back with an error.
    await oauth.logout();
    user = async (authorization) => {
      const back = new URL("http://127.0.0.1:9/callback");
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("state", authorization.searchParams.get("state") as string);
      back.searchParams.set("iss", as.issuer);
      return back;
    };
    await expect(client.callTool("whoami")).rejects.toMatchObject({
      data: { reason: "authorization-failed", oauthError: "authorization_failed" },
    });
    expect(ends).toHaveLength(2);
    expect(ends[1]?.error).toMatchObject({
      code: "authorization_failed",
      message: "The authorization server answered access_denied",
    });
    expect(await ends[1]?.token).toBeUndefined();
  });

  it("is not told of a refresh, which sends nobody to sign in", async () => {
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const ends: unknown[] = [];
    const oauth = new OAuthClient({
      serverUrl: mcp.url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
      onSignInEnd: (outcome) => ends.push(outcome),
    });
    as.tokenLifetime = 2;
    const client = await connect(mcp.url, oauth, "2025-11-25");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2100 });
    await client.callTool("whoami");
    expect(as.grants[0]).toBe("authorization_code");
    expect(as.grants.slice(1)).toContain("refresh_token");
    expect(as.grants.slice(1)).not.toContain("authorization_code");
    expect(ends).toEqual([{}]);
  });
});

describe("authorization: client pieces", () => {
  it("parses Bearer challenges, quoted or not, among other schemes", () => {
    expect(
      parseBearerChallenge(
        'Basic realm="x", Bearer error="insufficient_scope", scope="a b", resource_metadata="https://s/.well-known/x"',
      ),
    ).toEqual({ error: "insufficient_scope", scope: "a b", resourceMetadata: "https://s/.well-known/x" });
    expect(parseBearerChallenge("Bearer error=invalid_token")).toEqual({ error: "invalid_token" });
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
  });

  it("keeps tokens and credentials in a file only its owner can read, across clients", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpkit-oauth-"));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, "nested", "oauth.json");
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const make = () =>
      new OAuthClient({
        serverUrl: mcp.url,
        redirectUri: "http://127.0.0.1:9/callback",
        redirect: browser,
        storage: fileStorage(path),
      });
    const first = await connect(mcp.url, make());
    await first.callTool("whoami");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual([`client ${as.issuer}`, `tokens ${mcp.url}`]);
    // A second client with the same file needs no new login.
    const before = as.authorizations.length;
    const second = await connect(mcp.url, make());
    await second.callTool("whoami");
    expect(as.authorizations.length).toBe(before);
  });
});
