import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerifier, memoryStorage, OAuthClient, protectedResource, type StoredTokens } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, listen, type StreamableHttpHandler } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./authorization-server.js";
import { perTestAuthorizationServer, protectedMcp } from "./helpers.js";

// The OAuth client over a token's life: refresh tokens rotated or kept, tokens forgotten
// when the MCP server moves to another authorization server (SEP-2352), and the 2025-03-26
// default endpoints for a server that publishes no metadata at all.

const fixture = perTestAuthorizationServer();

function server(scopes: string[] = ["tools:read"]) {
  const s = createServer({ name: "vault", version: "1" });
  s.tool("whoami", { scopes }, (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`);
  return s;
}

const browser = async (authorizationUrl: URL) => {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  return new URL(response.headers.get("location") as string);
};

async function connect(url: string, oauth: OAuthClient) {
  const client = new Client({ name: "lifecycle-test", version: "1" });
  fixture.closers.push(() => client.close());
  await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
  return client;
}

const login = (serverUrl: string, extra: Partial<ConstructorParameters<typeof OAuthClient>[0]> = {}) =>
  new OAuthClient({ serverUrl, redirectUri: "http://127.0.0.1:9/callback", redirect: browser, ...extra });

/** Makes the stored access token expired, so the next call refreshes. */
async function expire(storage: ReturnType<typeof memoryStorage>, key: string) {
  await storage.set(key, { ...((await storage.get(key)) as StoredTokens), expires_at: Date.now() - 1 });
}

describe("refresh tokens over a token's life", () => {
  it("a rotated refresh token replaces the spent one, which is never sent again", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    const key = `tokens ${mcp.url}`;
    const client = await connect(mcp.url, login(mcp.url, { storage }));
    const first = ((await storage.get(key)) as StoredTokens).refresh_token;
    await expire(storage, key);
    await client.callTool("whoami");
    const second = ((await storage.get(key)) as StoredTokens).refresh_token;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    await expire(storage, key);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(as.tokenRequests.slice(1).map((form) => form.get("refresh_token"))).toEqual([first, second]);
    expect(as.authorizations).toHaveLength(1); // the spent token would have sent the user to log in again
  });

  it("a refresh that answers another scope replaces the one held", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    const key = `tokens ${mcp.url}`;
    const client = await connect(mcp.url, login(mcp.url, { storage }));
    expect(((await storage.get(key)) as StoredTokens).scope).toBe("tools:read offline_access");
    as.refreshScope = "tools:read";
    await expire(storage, key);
    await client.callTool("whoami");
    expect(((await storage.get(key)) as StoredTokens).scope).toBe("tools:read");
  });

  it("a refresh that answers no refresh token and no scope keeps the ones held", async () => {
    const { as, closers } = fixture;
    const mcp = await protectedMcp(server(), as);
    closers.push(mcp.close);
    as.refreshAnswer = "keep";
    const storage = memoryStorage();
    const key = `tokens ${mcp.url}`;
    const client = await connect(mcp.url, login(mcp.url, { storage }));
    const held = (await storage.get(key)) as StoredTokens;
    await expire(storage, key);
    await client.callTool("whoami");
    const after = (await storage.get(key)) as StoredTokens;
    expect(after.access_token).not.toBe(held.access_token);
    expect(after.refresh_token).toBe(held.refresh_token);
    expect(after.scope).toBe(held.scope);
    await expire(storage, key);
    await client.callTool("whoami");
    expect(as.grants).toEqual(["authorization_code", "refresh_token", "refresh_token"]);
    expect(as.authorizations).toHaveLength(1);
  });
});

/** An MCP server at a fixed URL whose authorization server can be changed while it runs. */
async function movableMcp(first: TestAuthorizationServer) {
  let handler: StreamableHttpHandler | undefined;
  const listening = await listen({
    fetch: (request) => (handler as StreamableHttpHandler).fetch(request),
    close: async () => handler?.close(),
  });
  const url = new URL("/mcp", listening.url).href;
  const trust = (as: TestAuthorizationServer) => {
    const auth = protectedResource({
      verifier: jwtVerifier({ jwksUrl: as.jwksUrl, issuer: as.issuer, audience: url }),
      resource: url,
      authorizationServers: [as.issuer],
      scopesSupported: ["tools:read"],
    });
    handler = createStreamableHttpHandler(server(), { auth });
  };
  trust(first);
  return { url, trust, close: () => listening.close() };
}

describe("a new authorization server (SEP-2352)", () => {
  it("forgets the tokens of the old one before logging in at the new one, and sends it nothing of the old", async () => {
    const { as, closers } = fixture;
    const mcp = await movableMcp(as);
    closers.push(mcp.close);
    const next = await startAuthorizationServer();
    closers.push(() => next.close());
    const storage = memoryStorage();
    const key = `tokens ${mcp.url}`;
    const heldAtLogin: (StoredTokens | undefined)[] = [];
    const oauth = login(mcp.url, {
      storage,
      redirect: async (url) => {
        heldAtLogin.push((await storage.get(key)) as StoredTokens | undefined);
        return browser(url);
      },
    });
    const client = await connect(mcp.url, oauth);
    const old = (await storage.get(key)) as StoredTokens;
    expect(old.issuer).toBe(as.issuer);

    mcp.trust(next); // the old tokens now get 401, whose challenge names the new metadata
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(heldAtLogin).toEqual([undefined, undefined]);
    expect(((await storage.get(key)) as StoredTokens).issuer).toBe(next.issuer);
    expect(next.grants).toEqual(["authorization_code"]);
    expect(next.tokenRequests.map((form) => form.get("refresh_token"))).not.toContain(old.refresh_token);
    expect(next.registered).toHaveLength(1);
  });
});

/**
 * A 2025-03-26 server with no metadata anywhere: its own origin serves /authorize, /token
 * and /register (passed on to the test authorization server) and the MCP endpoint, whose
 * 401 names no resource metadata.
 */
async function serverWithoutMetadata(as: TestAuthorizationServer) {
  let origin = "";
  let mcp: StreamableHttpHandler | undefined;
  const seen: string[] = [];
  const http: Server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", origin).pathname;
    seen.push(`${req.method} ${path}`);
    (async () => {
      if (["/authorize", "/token", "/register"].includes(path)) {
        let body = "";
        for await (const chunk of req) body += chunk;
        const upstream = await fetch(`${as.issuer}${req.url}`, {
          method: req.method ?? "GET",
          headers: { "content-type": req.headers["content-type"] ?? "application/x-www-form-urlencoded" },
          ...(body && { body }),
          redirect: "manual",
        });
        const location = upstream.headers.get("location");
        // The authorization server's own issuer in the redirect would not be this origin's.
        const back = location ? new URL(location) : undefined;
        back?.searchParams.delete("iss");
        res.writeHead(upstream.status, {
          "content-type": upstream.headers.get("content-type") ?? "application/json",
          ...(back && { location: back.href }),
        });
        return res.end(await upstream.text());
      }
      if (path !== "/mcp") {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      let body = "";
      for await (const chunk of req) body += chunk;
      const request = new Request(`${origin}${req.url}`, {
        method: req.method ?? "GET",
        headers,
        ...(req.method === "POST" && { body }),
      });
      const response = await (mcp as StreamableHttpHandler).fetch(request);
      const answered = Object.fromEntries(response.headers);
      // A 2025-03-26 server's challenge names no resource metadata.
      if (response.status === 401) answered["www-authenticate"] = 'Bearer error="invalid_token"';
      res.writeHead(response.status, answered);
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const auth = protectedResource({
    verifier: jwtVerifier({ jwksUrl: as.jwksUrl, issuer: as.issuer, audience: `${origin}/mcp` }),
    resource: `${origin}/mcp`,
    authorizationServers: [as.issuer],
  });
  mcp = createStreamableHttpHandler(server([]), { auth }); // no scopes, hence no step-up
  return {
    url: `${origin}/mcp`,
    seen,
    close: async () => {
      await mcp?.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe("a 2025-03-26 server that publishes no metadata", () => {
  it("is logged in to through the default endpoints at its origin: /register, /authorize, /token", async () => {
    const { as, closers } = fixture;
    const mcp = await serverWithoutMetadata(as);
    closers.push(mcp.close);
    const storage = memoryStorage();
    const client = await connect(mcp.url, login(mcp.url, { storage }));
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(mcp.seen.filter((line) => line.split(" ")[1] !== "/mcp")).toEqual([
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-authorization-server",
      "GET /.well-known/openid-configuration",
      "POST /register",
      "GET /authorize",
      "POST /token",
    ]);
    expect(((await storage.get(`tokens ${mcp.url}`)) as StoredTokens).issuer).toBe(new URL(mcp.url).origin);
  });
});
