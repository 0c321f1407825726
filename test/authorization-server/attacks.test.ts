import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, pkce, REDIRECT, rawClient, startHarness, statusOf } from "./harness.js";

// What a hostile client tries against the authorization server, each refused: a replayed
// code, PKCE taken away or weakened, a token asked for another resource, a token used at
// another resource, a spent refresh token, a revoked grant, another client's tokens.

let h: Harness;
let client: ReturnType<typeof rawClient>;
beforeEach(async () => {
  h = await startHarness();
  client = rawClient(h);
});
afterEach(async () => {
  await h.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("a replayed authorization code", () => {
  it("is refused, and the tokens the first use gave are revoked (RFC 6749 §4.1.2)", async () => {
    const registered = await client.register();
    const { code, verifier } = await client.code(registered);
    const exchange = {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: registered.client_id,
    };
    const first = await client.token(exchange);
    expect(first.status).toBe(200);
    expect(await statusOf(h.resource, bearer(first.body.access_token as string))).toBe(200);
    const replay = await client.token(exchange);
    expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(replay.body.error_description).toContain("used before");
    expect(await statusOf(h.resource, bearer(first.body.access_token as string))).toBe(401);
    const refresh = await client.token({
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token,
      client_id: registered.client_id,
    });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("redeemed by another client is refused", async () => {
    const registered = await client.register();
    const thief = await client.register();
    const { code, verifier } = await client.code(registered);
    const stolen = await client.token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: thief.client_id,
    });
    expect(stolen).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });
});

/** An authorization request refused on the server's own page (400), the client's redirect URI never reached. */
function refusedOnPage(result: { callback?: URL; status: number }, error: string) {
  expect(result.callback).toBeUndefined();
  expect(result.status).toBe(400);
  expect(client.browser.page).toContain(`(${error})`);
  return client.browser.page;
}

describe("PKCE", () => {
  it("is required: an authorization request without a challenge is refused (invalid_request)", async () => {
    const registered = await client.register();
    for (const params of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge: pkce().challenge, code_challenge_method: undefined },
    ]) {
      const result = await client.browser.authorize(client.authorizationUrl(registered, params), { until: REDIRECT });
      expect(refusedOnPage(result, "invalid_request")).toMatch(/PKCE/);
    }
  });

  it("cannot be downgraded to plain", async () => {
    const registered = await client.register();
    const { verifier } = pkce();
    const result = await client.browser.authorize(
      client.authorizationUrl(registered, { code_challenge: verifier, code_challenge_method: "plain" }),
      { until: REDIRECT },
    );
    expect(refusedOnPage(result, "invalid_request")).toContain("S256");
  });

  it("binds the code: a missing or wrong verifier gets invalid_grant", async () => {
    const registered = await client.register();
    const { code } = await client.code(registered);
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: registered.client_id };
    expect((await client.token(base)).body).toMatchObject({ error: "invalid_grant" });
    // The refusal spent the code: a thief without the verifier gets nothing after guessing.
    const again = await client.code(registered);
    const wrong = await client.token({ ...base, code: again.code, code_verifier: pkce().verifier });
    expect(wrong.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("PKCE") });
  });
});

describe("resources (RFC 8707)", () => {
  it("a code issued for one resource cannot be exchanged for another (resource swap)", async () => {
    const registered = await client.register();
    const { code, verifier } = await client.code(registered, { resource: h.resource });
    const swapped = await client.token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: registered.client_id,
      resource: h.otherResource,
    });
    expect(swapped).toMatchObject({ status: 400, body: { error: "invalid_target" } });
  });

  it("a resource this server does not serve is refused at the authorization request", async () => {
    const registered = await client.register();
    const result = await client.browser.authorize(
      client.authorizationUrl(registered, {
        code_challenge: pkce().challenge,
        resource: "https://elsewhere.example/mcp",
      }),
      { until: REDIRECT },
    );
    expect(refusedOnPage(result, "invalid_target")).toContain("elsewhere.example");
  });

  it("a token for another resource is refused by the MCP server", async () => {
    const registered = await client.register();
    const other = await client.signIn(registered, { resource: h.otherResource });
    expect(await statusOf(h.otherResource, bearer(other.access_token))).toBe(200);
    expect(await statusOf(h.resource, bearer(other.access_token))).toBe(401);
  });

  it("a refresh cannot move the grant to another resource", async () => {
    const registered = await client.register();
    const tokens = await client.signIn(registered);
    const moved = await client.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: registered.client_id,
      resource: h.otherResource,
    });
    expect(moved).toMatchObject({ status: 400, body: { error: "invalid_target" } });
  });
});

describe("refresh tokens", () => {
  const refresh = (clientId: string, token: string) =>
    client.token({ grant_type: "refresh_token", refresh_token: token, client_id: clientId });

  it("rotate: each use gives a new refresh token and a working access token", async () => {
    const registered = await client.register();
    const first = await client.signIn(registered);
    const second = await refresh(registered.client_id, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(await statusOf(h.resource, bearer(second.body.access_token as string))).toBe(200);
    const third = await refresh(registered.client_id, second.body.refresh_token as string);
    expect(third.status).toBe(200);
  });

  it("a spent refresh token presented again revokes the whole family (reuse detection)", async () => {
    const registered = await client.register();
    const first = await client.signIn(registered);
    const second = await refresh(registered.client_id, first.refresh_token);
    // An attacker replays the spent token...
    const replay = await refresh(registered.client_id, first.refresh_token);
    expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(replay.body.error_description).toContain("every token of this grant is revoked");
    // ...and the legitimate client's current tokens died with the family.
    expect((await refresh(registered.client_id, second.body.refresh_token as string)).body.error).toBe("invalid_grant");
    expect(await statusOf(h.resource, bearer(second.body.access_token as string))).toBe(401);
  });

  it("another client presenting one is refused, and the token is not spent", async () => {
    const registered = await client.register();
    const thief = await client.register();
    const tokens = await client.signIn(registered);
    expect((await refresh(thief.client_id, tokens.refresh_token)).body.error).toBe("invalid_grant");
    expect((await refresh(registered.client_id, tokens.refresh_token)).status).toBe(200);
  });

  it("cannot widen the scope", async () => {
    await h.close();
    h = await startHarness({ scopes: ["read", "write"] });
    client = rawClient(h);
    const registered = await client.register();
    const tokens = await client.signIn(registered, { scope: "read" });
    const wider = await client.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: registered.client_id,
      scope: "read write",
    });
    expect(wider).toMatchObject({ status: 400, body: { error: "invalid_scope" } });
  });
});

describe("revocation (RFC 7009)", () => {
  it("revoking the refresh token ends the grant: refresh and access tokens stop working", async () => {
    const registered = await client.register();
    const tokens = await client.signIn(registered);
    expect(await client.revoke(registered, tokens.refresh_token)).toBe(200);
    expect(await statusOf(h.resource, bearer(tokens.access_token))).toBe(401);
    const refreshed = await client.token({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: registered.client_id,
    });
    expect(refreshed.body.error).toBe("invalid_grant");
  });

  it("revoking the access token ends the grant too", async () => {
    const registered = await client.register();
    const tokens = await client.signIn(registered);
    expect(await client.revoke(registered, tokens.access_token)).toBe(200);
    expect(await statusOf(h.resource, bearer(tokens.access_token))).toBe(401);
  });

  it("another client's revocation, and an unknown token, are answered 200 and change nothing", async () => {
    const registered = await client.register();
    const other = await client.register();
    const tokens = await client.signIn(registered);
    expect(await client.revoke(other, tokens.refresh_token)).toBe(200);
    expect(await client.revoke(other, tokens.access_token)).toBe(200);
    expect(await client.revoke(registered, "not-a-token")).toBe(200);
    expect(await statusOf(h.resource, bearer(tokens.access_token))).toBe(200);
  });
});
