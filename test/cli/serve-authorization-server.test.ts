import { memoryStorage, OAuthClient } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../authorization-server/browser.js";
import { registerFrom } from "../authorization-server/harness.js";
import { type IdentityProvider, startIdentityProvider } from "../authorization-server/identity-provider.js";
import { mcpkit, requireBuild, start, stopAll, until } from "../cli-call/helpers.js";

// `mcpkit serve <server> --port 0 --authorization-server …`: a built-in server behind an
// authorization server of its own, on its own origin (the issuer); people sign in with the
// development sign-in or at an identity provider found by OpenID Connect discovery.

const REDIRECT = "http://127.0.0.1:4567/callback";

beforeAll(() => {
  requireBuild();
});
afterEach(stopAll);

async function serve(args: string[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const server = start(["serve", "everything", "--port", "0", ...args]);
  process.env = saved;
  await until(() => /serving MCP on (http:\/\/\S+\/mcp)/.test(server.stderr), 15_000, "serve to print its URL");
  const url = /serving MCP on (http:\/\/\S+\/mcp)/.exec(server.stderr)?.[1] as string;
  return { url, issuer: new URL(url).origin, server };
}

/** Signs in through the server's authorization server (the browser following every step), and connects. */
async function signedIn(url: string) {
  const browser = new Browser();
  const oauth = new OAuthClient({
    serverUrl: url,
    storage: memoryStorage(),
    redirectUri: REDIRECT,
    redirect: async (authorization) =>
      (await browser.authorize(authorization.href, { until: REDIRECT })).callback as URL,
  });
  const client = new Client({ name: "serve-as", version: "1" });
  await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
  return { client, browser };
}

describe("mcpkit serve --authorization-server dev", () => {
  it("issues tokens on its own origin to the development user, and serves the tools with them", async () => {
    const { url, issuer, server } = await serve(["--authorization-server", "dev"]);
    expect(server.stderr).toContain(`tokens from the authorization server at ${issuer} required`);
    expect(server.stderr).toContain("everyone is the test user");
    const metadata = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ issuer, authorization_endpoint: `${issuer}/authorize` });
    expect(await (await fetch(`${issuer}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({
      resource: url,
      authorization_servers: [issuer],
    });
    const unauthenticated = await fetch(url, { method: "POST", body: "{}" });
    expect(unauthenticated.status).toBe(401);
    const { client, browser } = await signedIn(url);
    try {
      expect(browser.page).toContain("Test User via Development sign-in");
      const result = await client.callTool("test_simple_text", {});
      expect(result.content[0]).toMatchObject({ type: "text" });
    } finally {
      await client.close();
    }
  });

  it("refuses a flood of registrations from one address, while a client at another address registers and signs in", async () => {
    const { url, issuer } = await serve(["--authorization-server", "dev"]);
    // 127.0.0.2 is this machine too, but another address to the server: the flood comes from it.
    const flood = [];
    for (let i = 0; i < 25; i++) flood.push(await registerFrom("127.0.0.2", issuer));
    expect(flood.slice(0, 20).map((r) => r.status)).toEqual(Array(20).fill(201));
    for (const refused of flood.slice(20)) {
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(3500);
      expect(refused.body).toMatchObject({
        error: "temporarily_unavailable",
        error_description: expect.stringContaining("Too many registrations from your address"),
      });
    }
    // From 127.0.0.1: a client registers itself, the person signs in, the tools answer.
    const { client } = await signedIn(url);
    try {
      expect((await client.callTool("test_simple_text", {})).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("with --trust-proxy, counts registrations through the proxy by the forwarded address, and a direct caller by its own", async () => {
    const { issuer } = await serve(["--authorization-server", "dev", "--trust-proxy", "127.0.0.1"]);
    // What nginx on 127.0.0.1 would send: the caller's address appended to X-Forwarded-For.
    const through = (caller: string) => registerFrom("127.0.0.1", issuer, { "x-forwarded-for": caller });
    const first = [];
    for (let i = 0; i < 21; i++) first.push((await through("198.51.100.1")).status);
    expect(first).toEqual([...Array(20).fill(201), 429]);
    expect((await through("198.51.100.2")).status).toBe(201);
    // 127.0.0.2 is not the proxy: whatever address it claims, its 21st registration is refused.
    const direct = [];
    for (let i = 0; i < 21; i++)
      direct.push((await registerFrom("127.0.0.2", issuer, { "x-forwarded-for": `203.0.113.${i}` })).status);
    expect(direct).toEqual([...Array(20).fill(201), 429]);
  });

  it.each([
    [["--authorization-server", "dev", "--host", "0.0.0.0"], "loopback only"],
    [["--authorization-server", "dev", "--public-url", "https://mcp.example.com/mcp"], "loopback only"],
    [["--authorization-server", "okta:dev-1.okta.com", "--client-id", "x"], "needs --client-id and the client secret"],
    [["--authorization-server", "entra", "--client-id", "x", "--client-secret", "y"], "entra needs its TENANT"],
    [["--authorization-server", "myidp", "--client-id", "x", "--client-secret", "y"], "takes dev, github, google"],
    [["--authorization-server", "dev", "--auth-server", "https://as.example"], "Choose one"],
    [["--client-id", "x"], "--client-id applies with --authorization-server only"],
    [["--authorization-server", "dev", "--authorization-secret", "short"], "at least 32 bytes"],
    [
      ["--authorization-server", "dev", "--redis", "redis://127.0.0.1:1", "--state-key", "k".repeat(32)],
      "needs --authorization-secret",
    ],
  ])("refuses %j before serving", async (args, message) => {
    const run = await mcpkit(["serve", "everything", "--port", "0", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("is for HTTP only", async () => {
    const run = await mcpkit(["serve", "everything", "--stdio", "--authorization-server", "dev"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("add --port");
  });
});

describe("mcpkit serve --authorization-server <OpenID Connect discovery URL>", () => {
  let idp: IdentityProvider;
  beforeAll(async () => {
    idp = await startIdentityProvider();
  });
  afterAll(async () => {
    await idp?.close();
  });

  it("sends people to sign in at the provider, then serves them", async () => {
    const { url, issuer, server } = await serve(
      ["--authorization-server", `${idp.issuer}/.well-known/openid-configuration`, "--client-id", idp.clientId],
      { MCPKIT_UPSTREAM_CLIENT_SECRET: idp.clientSecret },
    );
    expect(server.stderr).toContain(`people sign in with ${new URL(idp.issuer).host}`);
    // The server was registered at the provider with its callback, as its operator would.
    idp.serve([`${issuer}/callback`]);
    const { client, browser } = await signedIn(url);
    try {
      expect(idp.signIns).toEqual(["ada"]);
      expect(browser.page).toContain("Ada Lovelace");
      expect((await client.callTool("test_simple_text", {})).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
