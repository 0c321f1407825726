import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { Browser } from "./browser.js";
import { type Harness, pkce, REDIRECT, rawClient, startHarness, statusOf, whoami } from "./harness.js";

// createAuthorizationServer with the development sign-in, as a client sees it: metadata,
// the authorization request, the consent page, the code, the tokens, and the MCP server
// behind it accepting them.

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe("metadata (RFC 8414)", () => {
  it("is served at the well-known URI and says what a client needs", async () => {
    h = await startHarness({ scopes: ["files:read"] });
    const response = await fetch(`${h.issuer}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({
      issuer: h.issuer,
      authorization_endpoint: `${h.issuer}/authorize`,
      token_endpoint: `${h.issuer}/token`,
      registration_endpoint: `${h.issuer}/register`,
      revocation_endpoint: `${h.issuer}/revoke`,
      jwks_uri: `${h.issuer}/jwks`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      scopes_supported: ["files:read", "offline_access"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      dpop_signing_alg_values_supported: expect.arrayContaining(["ES256", "EdDSA"]),
    });
  });

  it("leaves out what is turned off", async () => {
    h = await startHarness({ registration: false, clientMetadataDocuments: false, dpop: false });
    const metadata = h.as.metadata();
    expect(metadata).not.toHaveProperty("registration_endpoint");
    expect(metadata).not.toHaveProperty("dpop_signing_alg_values_supported");
    expect(metadata.client_id_metadata_document_supported).toBe(false);
    const register = await fetch(`${h.issuer}/register`, { method: "POST", body: "{}" });
    expect(register.status).toBe(404);
  });

  it("refuses to start the development sign-in anywhere but loopback, or on a plain http issuer elsewhere", async () => {
    const { createAuthorizationServer, developmentUpstream } = await import("mcpkit/auth");
    expect(() =>
      createAuthorizationServer({
        issuer: "https://mcp.example.com",
        resources: ["https://mcp.example.com/mcp"],
        upstream: developmentUpstream(),
      }),
    ).toThrow(/loopback issuer .* only/);
    expect(() =>
      createAuthorizationServer({
        issuer: "http://mcp.example.com",
        resources: ["http://mcp.example.com/mcp"],
        upstream: developmentUpstream(),
      }),
    ).toThrow(/must be an https URL/);
  });
});

describe("signing in", () => {
  it("redirects back with code, state and iss; the token works at the MCP server and names the person", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register({ client_name: "Test App" });
    const { code, callback } = await client.code(registered);
    expect(callback.searchParams.get("state")).toBe("st-1");
    expect(callback.searchParams.get("iss")).toBe(h.issuer);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The consent page named the application and the person.
    expect(client.browser.page).toContain("Test App");
    expect(client.browser.page).toContain("Test User via Development sign-in");

    const tokens = await client.signIn(registered);
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 300, refresh_token: expect.any(String) });
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: "at+jwt", alg: "ES256" });
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      iss: h.issuer,
      sub: "dev:test-user",
      aud: h.resource,
      client_id: registered.client_id,
    });
    expect(await whoami(h.resource, `Bearer ${tokens.access_token}`)).toBe("you are dev:test-user");
  });

  it("answers tokens with no-store, and the JWKS lists the key that signed them", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register();
    const { code, verifier } = await client.code(registered);
    const answer = await client.token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: registered.client_id,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const jwks = (await (await fetch(`${h.issuer}/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toContain(decodeProtectedHeader(answer.body.access_token as string).kid);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
  });

  it("a confidential client authenticates with its secret, and is refused without it", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register({ token_endpoint_auth_method: "client_secret_basic" });
    expect(registered.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { code, verifier } = await client.code(registered);
    const exchange = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT };
    const anonymous = await client.token({ ...exchange, client_id: registered.client_id });
    expect(anonymous).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const wrong = `Basic ${Buffer.from(`${registered.client_id}:nope`).toString("base64")}`;
    expect(await client.token(exchange, { authorization: wrong })).toMatchObject({ status: 401 });
    const basic = `Basic ${Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString("base64")}`;
    // The refusals did not spend the code: a client that authenticates gets its tokens.
    expect(await client.token(exchange, { authorization: basic })).toMatchObject({ status: 200 });
  });

  it("a person who denies sends the client access_denied, with iss and state", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register();
    const url = client.authorizationUrl(registered, { code_challenge: pkce().challenge });
    const result = await client.browser.authorize(url, { until: REDIRECT, answer: "deny" });
    expect(Object.fromEntries(result.callback?.searchParams ?? [])).toMatchObject({
      error: "access_denied",
      state: "st-1",
      iss: h.issuer,
    });
  });

  it("an unregistered redirect URI gets an error page, never a redirect", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register();
    const url = client.authorizationUrl(registered, {
      code_challenge: pkce().challenge,
      redirect_uri: "https://attacker.example/steal",
    });
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain("did not register");
  });

  it("a loopback redirect URI matches on any port (RFC 8252 §7.3), another path does not", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register();
    const otherPort = "http://127.0.0.1:9999/callback";
    const result = await client.browser.authorize(
      client.authorizationUrl(registered, { code_challenge: pkce().challenge, redirect_uri: otherPort }),
      { until: otherPort },
    );
    expect(result.callback?.searchParams.get("code")).toBeTruthy();
    const elsewhere = await fetch(
      client.authorizationUrl(registered, {
        code_challenge: pkce().challenge,
        redirect_uri: "http://127.0.0.1:4567/other",
      }),
      { redirect: "manual" },
    );
    expect(elsewhere.status).toBe(400);
  });

  it("the consent page cannot be framed, runs no script, and is not cached", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register({ client_name: '<script>alert("x")</script>' });
    const url = client.authorizationUrl(registered, { code_challenge: pkce().challenge });
    const page = await client.browser.request(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
  });
});

describe("the consent decision", () => {
  it("expires with the sign-in: a late Allow gets no code", async () => {
    let now = Date.now();
    h = await startHarness({ now: () => now, signInTtlSec: 600 });
    const client = rawClient(h);
    const registered = await client.register();
    const url = client.authorizationUrl(registered, { code_challenge: pkce().challenge });
    const shown = await client.browser.authorize(url, { until: REDIRECT, answer: "stop" });
    expect(shown.status).toBe(200);
    now += 601_000;
    const late = await client.browser.answer(shown.at, "approve");
    expect(late.status).toBe(400);
    expect(late.headers.get("location")).toBeNull();
    expect(await late.text()).toContain("expired");
  });

  it("is taken once: the same answer posted again is refused", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register();
    const url = client.authorizationUrl(registered, { code_challenge: pkce().challenge });
    const shown = await client.browser.authorize(url, { until: REDIRECT, answer: "stop" });
    const first = await client.browser.answer(shown.at, "approve");
    expect(first.status).toBe(302);
    const again = await client.browser.answer(shown.at, "approve");
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("answered before");
  });

  it("counts only from the browser that started the sign-in, and never from another site", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const registered = await client.register();
    const url = client.authorizationUrl(registered, { code_challenge: pkce().challenge });
    const shown = await client.browser.authorize(url, { until: REDIRECT, answer: "stop" });
    const page = client.browser.page;
    const decision = /name="decision" value="([^"]+)"/.exec(page)?.[1] as string;
    // The same form, posted by another site's page in the person's browser.
    const crossSite = await client.browser.request(`${h.issuer}/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ decision, answer: "approve" }),
    });
    expect(crossSite.status).toBe(403);
    // Someone else's browser, holding the decision id.
    const other = new Browser();
    other.page = page;
    const stranger = await other.answer(shown.at, "approve");
    expect(stranger.status).toBe(403);
    expect(await stranger.text()).toContain("another browser");
  });
});

describe("the resource server behind it", () => {
  it("refuses requests without a token, pointing at the authorization server", async () => {
    h = await startHarness();
    const response = await fetch(h.resource, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
    const metadata = await (await fetch(`${h.issuer}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({ resource: h.resource, authorization_servers: [h.issuer] });
    expect(await statusOf(h.resource, { authorization: "Bearer not-a-token" })).toBe(401);
  });
});
