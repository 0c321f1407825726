import { describe, expect, it } from "vitest";
import { pkce } from "./harness.js";
import { ISSUER, RESOURCE, redirectingUpstream, setup } from "./in-process.js";

// The authorization server is not an open redirector (RFC 9700 §4.11.2): any client may
// register https://evil.example/…, so a request is sent back to a client's redirect URI
// only once it is valid in every part and the person has signed in and decided. Anything
// wrong before that is said on the server's own page. A link to /authorize is then no way
// to bounce a person from the server's trusted address to anyone's.

const EVIL = "https://evil.example/landing";

/** A public client registered with `redirect_uris`, and the query of a valid request for it. */
async function evilClient(server: ReturnType<typeof setup>, metadata: Record<string, unknown> = {}) {
  const response = await server.from("198.51.100.66").register({}, { redirect_uris: [EVIL], ...metadata });
  expect(response.status).toBe(201);
  const { client_id } = (await response.json()) as { client_id: string };
  return {
    client_id,
    request: (params: Record<string, string | undefined>) => {
      const url = new URL(`${ISSUER}/authorize`);
      const all: Record<string, string | undefined> = {
        response_type: "code",
        client_id,
        redirect_uri: EVIL,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
        state: "s",
        resource: RESOURCE,
        ...params,
      };
      for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
      return url.href;
    },
  };
}

/** A page from the server itself: HTML, no Location. */
async function ownPage(response: Response, status: number): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toContain("text/html");
  return response.text();
}

describe("a malformed authorization request", () => {
  it.each([
    ["no response_type", { response_type: undefined }, "unsupported_response_type"],
    ["response_type token", { response_type: "token" }, "unsupported_response_type"],
    ["no code_challenge", { code_challenge: undefined }, "invalid_request"],
    ["code_challenge_method plain", { code_challenge_method: "plain" }, "invalid_request"],
    ["no code_challenge_method", { code_challenge_method: undefined }, "invalid_request"],
    ["a challenge that is not S256", { code_challenge: "short" }, "invalid_request"],
    ["a resource this server does not serve", { resource: "https://elsewhere.example/mcp" }, "invalid_target"],
    ["an unknown scope", { scope: "admin" }, "invalid_scope"],
    ["a dpop_jkt that is no thumbprint", { dpop_jkt: "x" }, "invalid_request"],
    ["a state of 3000 characters", { state: "s".repeat(3000) }, "invalid_request"],
  ])("with %s is answered on the server's page, never at the client's redirect URI", async (_, params, error) => {
    const server = setup();
    const client = await evilClient(server);
    const page = await ownPage(await server.from("203.0.113.7").send(client.request(params)), 400);
    expect(page).toContain(`(${error})`);
    expect(page).toContain("Nothing was sent back to it");
  });

  it("with a repeated state, or from a client without the authorization_code grant, likewise", async () => {
    const server = setup();
    const client = await evilClient(server);
    const twice = `${client.request({})}&state=again`;
    expect(await ownPage(await server.from("203.0.113.7").send(twice), 400)).toContain("state is repeated");
    const refreshOnly = await evilClient(server, { grant_types: ["refresh_token"] });
    expect(await ownPage(await server.from("203.0.113.7").send(refreshOnly.request({})), 400)).toContain(
      "(unauthorized_client)",
    );
  });
});

describe("a valid request", () => {
  it("shows the consent page saying where the application returns; nothing is sent there before the person decides", async () => {
    const server = setup();
    const client = await evilClient(server);
    const page = await ownPage(await server.from("203.0.113.7").send(client.request({})), 200);
    expect(page).toContain("<dt>Returns to</dt><dd>evil.example</dd>");
  });

  it("whose provider cannot start a sign-in is answered on a page", async () => {
    const server = setup({
      upstream: {
        ...redirectingUpstream(),
        begin: async () => {
          const { UpstreamError } = await import("mcpkit/auth");
          throw new UpstreamError("the provider is down");
        },
      },
    });
    const client = await evilClient(server);
    expect(await ownPage(await server.from("203.0.113.7").send(client.request({})), 502)).toContain("cannot start now");
  });

  it("the person declining at the provider, or the provider failing, ends the sign-in on a page: they never signed in", async () => {
    for (const [error, status, says] of [
      ["access_denied", 403, "was declined"],
      ["server_error", 502, "failed"],
    ] as const) {
      const server = setup({ upstream: redirectingUpstream() });
      const client = await evilClient(server);
      const browser = server.from("203.0.113.7").browser();
      const started = await browser.request(client.request({}));
      const state = new URL(started.headers.get("location") as string).searchParams.get("state");
      const answer = await browser.request(`${ISSUER}/callback?error=${error}&state=${state}`);
      expect(await ownPage(answer, status)).toContain(says);
      // The sign-in ended: coming back again finds nothing.
      const again = await browser.request(`${ISSUER}/callback?code=ada&state=${state}`);
      expect(await ownPage(again, 400)).toContain("expired");
    }
  });

  it("from a client kept from before today's rules, with a redirect URI they refuse, is answered on a page", async () => {
    const server = setup();
    // As a store holds it after an upgrade: registered when ms-msdt: was still accepted.
    const legacy = {
      client_id: "legacy-client",
      redirect_uris: ["ms-msdt:-id"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
      source: "registration",
    };
    await server.memory.put("client", legacy.client_id, JSON.stringify(legacy), 60_000);
    const url = new URL(`${ISSUER}/authorize`);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: legacy.client_id,
      redirect_uri: legacy.redirect_uris[0] as string,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
    }))
      url.searchParams.set(k, v);
    expect(await ownPage(await server.from("203.0.113.7").send(url.href), 400)).toContain("ms-msdt: scheme");
  });
});
