import { introspectionVerifier, jwtVerifier, parseBearerChallenge, protectedResource } from "mcpkit/auth";
import { createStreamableHttpHandler } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./authorization-server.js";
import { initialize, post, protectedMcp } from "./helpers.js";

let as: TestAuthorizationServer;
let closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  as = await startAuthorizationServer();
  closers = [() => as.close()];
});
afterEach(async () => {
  for (const close of closers.reverse()) await close();
});

function server(scopePolicy?: "hide" | "step-up") {
  const s = createServer({ name: "protected", version: "1", ...(scopePolicy && { scopePolicy }) });
  s.tool("read_stuff", { scopes: ["tools:read"] }, (_a, ctx) => `hello ${(ctx.auth as { subject?: string }).subject}`);
  s.tool("admin_stuff", { scopes: ["tools:admin"] }, () => "admin done");
  return s;
}

async function serve(scopePolicy?: "hide" | "step-up") {
  const mcp = await protectedMcp(server(scopePolicy), as);
  closers.push(mcp.close);
  return mcp;
}

const token = (
  url: string,
  claims: Record<string, unknown> = {},
  options: Parameters<TestAuthorizationServer["sign"]>[1] = {},
) => as.sign({ sub: "user-ada", scope: "tools:read", ...claims }, { audience: url, ...options });

describe("authorization: failures the operator must see", () => {
  it("reports a verifier that failed for another reason than the token, and answers 401", async () => {
    // The JWKS or introspection endpoint is down: every token fails to verify, through no
    // fault of the client, and the operator hears of it.
    const down = "http://127.0.0.1:1";
    for (const verifier of [
      jwtVerifier({ jwksUrl: `${down}/jwks`, issuer: as.issuer, audience: "http://127.0.0.1/mcp" }),
      introspectionVerifier({ endpoint: `${down}/introspect`, clientId: "rs", clientSecret: "s", audience: "x" }),
    ]) {
      const errors: unknown[] = [];
      const mcp = await protectedMcp(server(), as, { verifier, onError: (error) => errors.push(error) });
      closers.push(mcp.close);
      const response = await post(mcp.url, initialize, { authorization: `Bearer ${await token(mcp.url)}` });
      expect(response.status).toBe(401);
      // The client is not told the detail; the operator is.
      expect(await response.text()).toContain("could not be verified");
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toMatch(/keys could not be fetched|introspection failed/);
    }
  });

  it("turns an unexpected failure while authenticating into a 500 that reaches the server's onError", async () => {
    const errors: unknown[] = [];
    const mcp = createServer({ name: "s", version: "1", onError: (error) => errors.push(error) });
    const broken = {
      ...protectedResource({
        verifier: async () => ({ claims: {} }) as never,
        resource: "http://x/mcp",
        authorizationServers: [],
      }),
      authenticate: async () => {
        throw new Error("the policy engine is down");
      },
    };
    const handler = createStreamableHttpHandler(mcp, { auth: broken });
    const response = await handler.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: "127.0.0.1",
        },
        body: JSON.stringify(initialize),
      }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: -32603, message: "Internal error" } });
    expect(errors.map(String)).toEqual(["Error: the policy engine is down"]);
  });
});

describe("authorization: the resource server", () => {
  it("serves Protected Resource Metadata at the path-suffixed well-known URI", async () => {
    const { url } = await serve();
    const response = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: url,
      authorization_servers: [as.issuer],
      scopes_supported: ["tools:read"],
      bearer_methods_supported: ["header"],
    });
  });

  it("answers a request without a token with 401 and a challenge naming the metadata and scopes", async () => {
    const { url } = await serve();
    const response = await post(url, initialize);
    expect(response.status).toBe(401);
    expect(parseBearerChallenge(response.headers.get("www-authenticate"))).toEqual({
      resourceMetadata: new URL("/.well-known/oauth-protected-resource/mcp", url).href,
      scope: "tools:read",
    });
  });

  it("refuses tokens for another audience, expired, from another issuer, or unsigned by its keys", async () => {
    const { url } = await serve();
    const cases: [string, Promise<string> | string][] = [
      ["wrong audience", token(url, {}, { audience: "http://127.0.0.1:1/other" })],
      ["expired", token(url, {}, { expiresIn: Math.floor(Date.now() / 1000) - 120 })],
      ["wrong issuer", token(url, {}, { issuer: "http://evil.example" })],
      ["garbage", "not.a.jwt"],
    ];
    for (const [why, pending] of cases) {
      const response = await post(url, initialize, { authorization: `Bearer ${await pending}` });
      expect(response.status, why).toBe(401);
      expect(parseBearerChallenge(response.headers.get("www-authenticate"))?.error, why).toBe("invalid_token");
    }
    expect((await post(url, initialize, { authorization: `Bearer ${await token(url)}` })).status).toBe(200);
  });

  it("puts the principal on the handler's context and answers a missing tool scope with 403 step-up", async () => {
    const { url } = await serve();
    const bearer = { authorization: `Bearer ${await token(url)}` };
    const init = await post(url, initialize, bearer);
    const session = init.headers.get("mcp-session-id") as string;
    const headers = { ...bearer, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const ok = await post(
      url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_stuff", arguments: {} } },
      headers,
    );
    expect(await ok.json()).toMatchObject({ result: { content: [{ text: "hello user-ada" }] } });
    const denied = await post(
      url,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "admin_stuff", arguments: {} } },
      headers,
    );
    expect(denied.status).toBe(403);
    expect(parseBearerChallenge(denied.headers.get("www-authenticate"))).toMatchObject({
      error: "insufficient_scope",
      scope: "tools:admin",
    });
    expect(await denied.json()).toMatchObject({
      id: 3,
      error: { data: { reason: "insufficient_scope", requiredScopes: ["tools:admin"] } },
    });
    const list = await post(url, { jsonrpc: "2.0", id: 4, method: "tools/list" }, headers);
    expect(((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toEqual([
      "admin_stuff",
      "read_stuff",
    ]);
  });

  it("hides what the caller lacks the scopes for when the policy says so", async () => {
    const { url } = await serve("hide");
    const bearer = { authorization: `Bearer ${await token(url)}` };
    const session = (await post(url, initialize, bearer)).headers.get("mcp-session-id") as string;
    const headers = { ...bearer, "mcp-session-id": session };
    const list = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
    expect(((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toEqual([
      "read_stuff",
    ]);
    const call = await post(
      url,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "admin_stuff", arguments: {} } },
      headers,
    );
    expect(await call.json()).toMatchObject({ error: { code: -32602, message: "Unknown tool: admin_stuff" } });
  });

  it("binds a session to its principal: the same session id with another principal's token is refused", async () => {
    const { url } = await serve();
    const ada = { authorization: `Bearer ${await token(url)}` };
    const session = (await post(url, initialize, ada)).headers.get("mcp-session-id") as string;
    const mallory = { authorization: `Bearer ${await token(url, { sub: "user-mallory" })}`, "mcp-session-id": session };
    const stolen = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, mallory);
    expect(stolen.status).toBe(404);
    const own = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { ...ada, "mcp-session-id": session });
    expect(own.status).toBe(200);
  });

  it("verifies opaque tokens by introspection, refusing inactive ones and other audiences", async () => {
    const { createServer: createHttp } = await import("node:http");
    const seen: string[] = [];
    const introspection = createHttp(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      const tokenValue = new URLSearchParams(body).get("token") ?? "";
      seen.push(req.headers.authorization ?? "");
      const answers: Record<string, unknown> = {
        good: {
          active: true,
          sub: "svc",
          scope: "a b",
          aud: "https://mcp.example/mcp",
          exp: Math.floor(Date.now() / 1000) + 60,
        },
        other: { active: true, sub: "svc", aud: "https://else.example/mcp" },
        dead: { active: false },
      };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answers[tokenValue] ?? { active: false }));
    });
    await new Promise<void>((r) => introspection.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise((r) => introspection.close(() => r())));
    const port = (introspection.address() as { port: number }).port;
    const verify = introspectionVerifier({
      endpoint: `http://127.0.0.1:${port}/introspect`,
      clientId: "mcp-server",
      clientSecret: "s3cret",
      audience: "https://mcp.example/mcp",
    });
    await expect(verify("good")).resolves.toMatchObject({ subject: "svc", scopes: ["a", "b"] });
    await expect(verify("other")).rejects.toThrow(/issued for https:\/\/else\.example/);
    await expect(verify("dead")).rejects.toThrow(/not active/);
    expect(seen[0]).toBe(`Basic ${Buffer.from("mcp-server:s3cret").toString("base64")}`);
  });
});
