import {
  type AuthorizationServerOptions,
  createAuthorizationServer,
  developmentUpstream,
  type MemoryAuthorizationStore,
  memoryAuthorizationStore,
  type UpstreamProvider,
} from "mcpkit/auth";
import { expect } from "vitest";
import { Browser } from "./browser.js";
import { pkce, REDIRECT } from "./harness.js";

// An authorization server called in-process with the caller's address, as mcpkit's Node
// adapter calls it (`fetch(request, { clientAddress })`): any number of addresses without
// any network, and the server's clock injected, so a window passes when a test says so.

// Requests are handed to the server in-process, so this address is never listened on.
export const ISSUER = "http://127.0.0.1:9";
export const RESOURCE = `${ISSUER}/mcp`;

export function setup(options: Partial<AuthorizationServerOptions> = {}) {
  let clock = Date.parse("2026-12-01T09:00:00Z");
  const now = () => clock;
  const memory: MemoryAuthorizationStore = memoryAuthorizationStore({ now });
  const as = createAuthorizationServer({
    issuer: ISSUER,
    resources: [RESOURCE],
    upstream: developmentUpstream(),
    onError: () => {},
    now,
    store: memory,
    ...options,
  });
  /** Everything one caller does, from `address` (none: a runtime that does not say). */
  const from = (address?: string) => {
    const send = (url: string, init: RequestInit = {}) =>
      as.fetch(new Request(url, init), address === undefined ? undefined : { clientAddress: address });
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      send(`${ISSUER}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
      });
    return {
      send,
      register: (headers: Record<string, string> = {}, metadata: Record<string, unknown> = {}) =>
        send(`${ISSUER}/register`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", ...metadata }),
        }),
      /** A registration's client id (failing unless it was registered). */
      registered: async () => {
        const response = await send(`${ISSUER}/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { client_id: string }).client_id;
      },
      authorize: (clientId: string, challenge = pkce().challenge) =>
        send(authorizationUrl(clientId, challenge), { redirect: "manual" }),
      callback: () => send(`${ISSUER}/callback?state=unknown&code=x`),
      consent: () => post("/consent", "decision=unknown&answer=approve", { origin: ISSUER }),
      token: () => post("/token", "grant_type=authorization_code&code=unknown&client_id=nobody"),
      revoke: () => post("/revoke", "token=unknown&client_id=nobody"),
      /** A person's browser at this address. */
      browser: () => new Browser(send),
      /** The whole sign-in of a public client from this address: authorize, consent, token. */
      signIn: (clientId: string) => signIn(send, clientId),
    };
  };
  return {
    as,
    /** The in-memory store (unless the options gave another), which says what it holds. */
    memory,
    from,
    /** Moves the server's clock on. */
    advance: (seconds: number) => {
      clock += seconds * 1000;
    },
    /** A client registered from an address of its own, for the sign-in tests. */
    client: () => from("192.0.2.250").registered(),
  };
}

export function authorizationUrl(clientId: string, challenge: string, resource = RESOURCE): string {
  const url = new URL(`${ISSUER}/authorize`);
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st-1",
    resource,
  }))
    url.searchParams.set(k, v);
  return url.href;
}

/** A 429 OAuth error answer: temporarily_unavailable, Retry-After, never cached. */
export async function refusedAsJson(response: Response) {
  expect(response.status).toBe(429);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error).toBe("temporarily_unavailable");
  return { retryAfter: Number(response.headers.get("retry-after")), description: body.error_description };
}

/** A 429 page for the person's browser, with Retry-After. */
export async function refusedAsPage(response: Response) {
  expect(response.status).toBe(429);
  expect(response.headers.get("content-type")).toContain("text/html");
  return { retryAfter: Number(response.headers.get("retry-after")), page: await response.text() };
}

/** Does `n` requests and expects none refused by a limit. */
export async function times(n: number, request: () => Promise<Response>) {
  for (let i = 0; i < n; i++) {
    const response = await request();
    expect(response.status, `request ${i + 1} of ${n}`).not.toBe(429);
    expect(response.status, `request ${i + 1} of ${n}`).not.toBe(503);
    await response.body?.cancel();
  }
}

/** The whole sign-in of a public client through `send`: authorize, consent, token (for `resource`). */
export async function signIn(
  send: (url: string, init?: RequestInit) => Promise<Response>,
  clientId: string,
  resource = RESOURCE,
) {
  const { verifier, challenge } = pkce();
  const result = await new Browser(send).authorize(authorizationUrl(clientId, challenge, resource), {
    until: REDIRECT,
  });
  const code = result.callback?.searchParams.get("code");
  if (!code) return { ok: false, at: result };
  const response = await send(`${ISSUER}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    }),
  });
  return { ok: response.status === 200, at: result, status: response.status };
}

/**
 * An identity provider that sends the person away to sign in, and signs in whoever the
 * callback's `code` names (ada when it names nobody) when they come back.
 */
export function redirectingUpstream(): UpstreamProvider {
  return {
    id: "idp",
    title: "Example IdP",
    begin: async ({ state }) => ({ url: new URL(`https://idp.example/login?state=${state}`), kept: {} }),
    finish: async (query) => {
      const person = query.get("code") || "ada";
      return { identity: { subject: person, name: person } };
    },
  };
}
