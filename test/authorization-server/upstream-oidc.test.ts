import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { decodeJwt } from "jose";
import { memoryStorage, OAuthClient, oidcUpstream, upstreamToken } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer, type McpServer } from "mcpkit/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./browser.js";
import { type Harness, REDIRECT, startHarness, statusOf } from "./harness.js";
import { type IdentityProvider, startIdentityProvider } from "./identity-provider.js";

// End to end with a real identity provider (oidc-provider on 127.0.0.1): a person signs in
// there through mcpkit's authorization server, from mcpkit's client and from the official
// SDK's; the tools then call the provider's API for that person with their upstream token,
// which never reaches the MCP client.

/** Tools that use the caller's sign-in at the identity provider. */
function profileServer(idp: IdentityProvider): McpServer {
  const server = createServer({ name: "profile", version: "1" });
  server.tool("whoami", {}, (_args, ctx) => `you are ${(ctx.auth as { subject: string }).subject}`);
  server.tool("profile", {}, async (_args, ctx) => {
    const token = await upstreamToken(ctx.auth, "oidc");
    const response = await fetch(`${idp.issuer}/me`, { headers: { authorization: `Bearer ${token}` } });
    const me = (await response.json()) as { name: string; email: string };
    return `${me.name} <${me.email}>`;
  });
  // For this test only: shows the upstream token, to check it is not the MCP token and is refused as one.
  server.tool("upstream_token", {}, async (_args, ctx) => (await upstreamToken(ctx.auth)) ?? "none");
  return server;
}

async function setUp(options: { accessTokenTtlSec?: number } = {}) {
  const idp = await startIdentityProvider(options);
  let h: Harness | undefined;
  try {
    h = await startHarness({
      upstream: oidcUpstream({
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        // oidc-provider issues refresh tokens for offline_access only after consent was asked.
        authorizationParams: { prompt: "consent" },
      }),
      server: profileServer(idp),
    });
  } catch (error) {
    await idp.close();
    throw error;
  }
  idp.serve([`${h.issuer}/callback`]);
  return { idp, h };
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe("mcpkit's client, signing in at a real OpenID Provider through the authorization server", () => {
  let idp: IdentityProvider;
  let h: Harness;
  beforeAll(async () => {
    ({ idp, h } = await setUp());
  });
  afterAll(async () => {
    await h?.close();
    await idp?.close();
  });

  it("signs in, calls tools as the person, and the tools reach the provider's API with the person's token", async () => {
    const browser = new Browser();
    const storage = memoryStorage();
    const oauth = new OAuthClient({
      serverUrl: h.resource,
      storage,
      clientName: "e2e",
      redirectUri: REDIRECT,
      redirect: async (url) => {
        const result = await browser.authorize(url.href, { until: REDIRECT });
        if (!result.callback) throw new Error(`sign-in stopped at ${result.at}: ${browser.page}`);
        return result.callback;
      },
    });
    const client = new Client({ name: "e2e", version: "1" });
    await client.connect(streamableHttpClientTransport(h.resource, { auth: oauth }));
    try {
      expect(text(await client.callTool("whoami", {}))).toBe("you are oidc:ada");
      expect(text(await client.callTool("profile", {}))).toBe("Ada Lovelace <ada@example.com>");
      // The person went through the provider's sign-in, and the consent page named them.
      expect(idp.signIns).toContain("ada");
      expect(browser.page).toContain("Ada Lovelace");
      expect(browser.visited.some((u) => u.startsWith(`${idp.issuer}/auth`))).toBe(true);

      // No token passthrough: the MCP client's token is the authorization server's (DPoP-bound,
      // as the metadata offered), and the provider's token is refused by the MCP server.
      const stored = JSON.stringify(await storage.get(`tokens ${h.resource}`));
      const upstream = text(await client.callTool("upstream_token", {}));
      expect(upstream).not.toBe("none");
      expect(stored).not.toContain(upstream);
      const mine = JSON.parse(stored) as { access_token: string; token_type: string };
      expect(mine.token_type.toLowerCase()).toBe("dpop");
      expect(decodeJwt(mine.access_token)).toMatchObject({ iss: h.issuer, sub: "oidc:ada", aud: h.resource });
      expect(await statusOf(h.resource, { authorization: `Bearer ${upstream}` })).toBe(401);
    } finally {
      await client.close();
    }
  });

  it("the official SDK client signs in the same way and calls the tools", async () => {
    const browser = new Browser();
    const state: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; callback?: URL } = {};
    const provider: OAuthClientProvider = {
      redirectUrl: REDIRECT,
      clientMetadata: {
        client_name: "sdk-e2e",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      },
      clientInformation: () => state.client,
      saveClientInformation: (info) => {
        state.client = info;
      },
      tokens: () => state.tokens,
      saveTokens: (tokens) => {
        state.tokens = tokens;
      },
      redirectToAuthorization: async (url) => {
        const result = await browser.authorize(url.href, { until: REDIRECT });
        state.callback = result.callback;
      },
      saveCodeVerifier: (verifier) => {
        state.verifier = verifier;
      },
      codeVerifier: () => state.verifier as string,
    };
    const connect = async () => {
      const transport = new StreamableHTTPClientTransport(new URL(h.resource), { authProvider: provider });
      const client = new SdkClient({ name: "sdk-e2e", version: "1" });
      await client.connect(transport);
      return { client, transport };
    };
    // The first attempt sends the person to sign in; the client then redeems the code.
    const refused = await connect().catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    const code = state.callback?.searchParams.get("code");
    expect(state.callback?.searchParams.get("iss")).toBe(h.issuer);
    expect(code).toBeTruthy();
    const pending = new StreamableHTTPClientTransport(new URL(h.resource), { authProvider: provider });
    await pending.finishAuth(code as string);
    const { client } = await connect();
    try {
      expect(text((await client.callTool({ name: "whoami", arguments: {} })) as { content: unknown[] })).toBe(
        "you are oidc:ada",
      );
      expect(text((await client.callTool({ name: "profile", arguments: {} })) as { content: unknown[] })).toBe(
        "Ada Lovelace <ada@example.com>",
      );
      expect(decodeJwt(state.tokens?.access_token as string)).toMatchObject({ iss: h.issuer, aud: h.resource });
    } finally {
      await client.close();
    }
  });
});

describe("upstream tokens kept by the authorization server", () => {
  it("are refreshed at the provider when they expire, and the tool gets a working one", async () => {
    // The provider's access tokens live 30 s: always within the minute before expiry, so each use refreshes.
    const { idp, h } = await setUp({ accessTokenTtlSec: 30 });
    try {
      const browser = new Browser();
      const oauth = new OAuthClient({
        serverUrl: h.resource,
        storage: memoryStorage(),
        redirectUri: REDIRECT,
        redirect: async (url) => (await browser.authorize(url.href, { until: REDIRECT })).callback as URL,
      });
      const client = new Client({ name: "refresh", version: "1" });
      await client.connect(streamableHttpClientTransport(h.resource, { auth: oauth }));
      try {
        const first = text(await client.callTool("upstream_token", {}));
        const second = text(await client.callTool("upstream_token", {}));
        expect(second).not.toBe(first);
        expect(text(await client.callTool("profile", {}))).toBe("Ada Lovelace <ada@example.com>");
      } finally {
        await client.close();
      }
    } finally {
      await h.close();
      await idp.close();
    }
  });
});
