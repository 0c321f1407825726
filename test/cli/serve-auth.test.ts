import { OAuthClient } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/authorization-server.js";
import { mcpkit, type Running, requireBuild, start, stopAll, until } from "../cli-call/helpers.js";

// `mcpkit serve --port … --auth-server … --jwks-url …`: the built-in server as an OAuth
// resource server, checked from the outside with plain HTTP and with mcpkit's client.

let as: TestAuthorizationServer;
beforeAll(async () => {
  requireBuild();
  as = await startAuthorizationServer();
});
afterAll(() => as.close());
afterEach(stopAll);

async function serveProtected(...extra: string[]): Promise<{ url: string; server: Running }> {
  const server = start([
    "serve",
    "everything",
    "--port",
    "0",
    "--auth-server",
    as.issuer,
    "--jwks-url",
    as.jwksUrl,
    ...extra,
  ]);
  await until(() => /serving MCP on (http:\/\/\S+\/mcp)/.test(server.stderr), 8000, "serve to print its URL");
  return { url: /serving MCP on (http:\/\/\S+\/mcp)/.exec(server.stderr)?.[1] as string, server };
}

describe("mcpkit serve with --auth-server", () => {
  it("answers 401 with a challenge that leads to its Protected Resource Metadata", async () => {
    const { url, server } = await serveProtected();
    expect(server.stderr).toContain(`tokens from ${as.issuer} required`);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] as string;
    expect(metadataUrl).toBe(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({
      resource: url,
      authorization_servers: [as.issuer],
    });
    // HTTP+SSE has no authorization: it is not served at all.
    expect((await fetch(new URL("/sse", url))).status).toBe(404);
  });

  it("serves a client that logged in at the authorization server, and refuses tokens for another audience", async () => {
    const { url } = await serveProtected("--required-scope", "tools:read");
    const oauth = new OAuthClient({
      serverUrl: url,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: async (authorizationUrl) =>
        new URL((await fetch(authorizationUrl, { redirect: "manual" })).headers.get("location") as string),
    });
    const client = new Client({ name: "serve-auth-test", version: "1" });
    await client.connect(streamableHttpClientTransport(url, { auth: oauth }));
    try {
      expect((await client.callTool("add", { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
      expect(as.authorizations.at(-1)?.get("scope")).toContain("tools:read");
    } finally {
      await client.close();
    }
    const elsewhere = await as.sign({ sub: "x", scope: "tools:read" }, { audience: "http://127.0.0.1:1/mcp" });
    const refused = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${elsewhere}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
  });

  it("refuses incomplete or contradictory flags before serving anything", async () => {
    const cases: [string[], string][] = [
      [["--port", "0", "--jwks-url", "http://127.0.0.1:1/jwks"], "need --auth-server"],
      [["--port", "0", "--auth-server", as.issuer], "exactly one of --jwks-url"],
      [["--auth-server", as.issuer, "--jwks-url", as.jwksUrl], "Authorization applies to HTTP: add --port"],
      [
        ["--port", "0", "--auth-server", "not a url", "--jwks-url", as.jwksUrl],
        '--auth-server takes a URL, not "not a url"',
      ],
      [
        ["--port", "0", "--auth-server", as.issuer, "--introspection-url", `${as.issuer}/introspect`],
        "needs --introspection-client and the client secret in $MCPKIT_INTROSPECTION_SECRET",
      ],
    ];
    for (const [flags, message] of cases) {
      const run = await mcpkit(["serve", "everything", ...flags]);
      expect(run.code, flags.join(" ")).not.toBe(0);
      expect(run.stderr).toContain(message);
    }
  });
});
