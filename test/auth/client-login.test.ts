import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileStorage, OAuthClient, parseBearerChallenge } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./authorization-server.js";
import { protectedMcp } from "./helpers.js";

let as: TestAuthorizationServer;
let closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  as = await startAuthorizationServer();
  closers = [() => as.close()];
});
afterEach(async () => {
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

    await new Promise((r) => setTimeout(r, 2100));
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(as.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(redirects).toHaveLength(1); // no user action for the refresh
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
