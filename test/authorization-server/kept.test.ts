import { describe, expect, it } from "vitest";
import type { Browser } from "./browser.js";
import { pkce, REDIRECT } from "./harness.js";
import { authorizationUrl, ISSUER, redirectingUpstream, setup } from "./in-process.js";

// What the authorization server keeps on anyone's say-so (registrations, sign-ins under
// way) is bounded without refusing anyone for want of room: a registration never used
// lasts 10 minutes, a sign-in never finished 10 minutes, and at a cap the oldest of
// whoever holds the most gives way, so a crowd of addresses cannot lock a newcomer out.
// Clients someone signed in with are kept. The server's clock is injected.

type Caller = ReturnType<ReturnType<typeof setup>["from"]>;

/** Whether `clientId` is still known: /authorize goes on to sign in (the consent page, or the provider), not "is not registered here". */
async function known(caller: Caller, clientId: string): Promise<boolean> {
  const response = await caller.authorize(clientId);
  const page = await response.text();
  if (response.status === 400 && page.includes("is not registered here")) return false;
  expect([200, 302], page).toContain(response.status);
  return true;
}

/** A browser at `caller` on its consent page for `clientId` (the development sign-in: no provider in between). */
async function atConsent(caller: Caller, clientId: string): Promise<{ browser: Browser; at: string }> {
  const browser = caller.browser();
  const at = authorizationUrl(clientId, pkce().challenge);
  const shown = await browser.authorize(at, { until: REDIRECT, answer: "stop" });
  expect(shown.status, browser.page).toBe(200);
  return { browser, at };
}

/** The person's Allow: whether it reached the client with a code. */
async function allowed({ browser, at }: { browser: Browser; at: string }): Promise<boolean> {
  const response = await browser.answer(at, "approve");
  const location = response.headers.get("location");
  return response.status === 302 && location !== null && new URL(location).searchParams.has("code");
}

describe("registrations never used", () => {
  it("expire after 10 minutes, while a registration a token was issued to is kept for the clients' lifetime", async () => {
    const { from, advance } = setup();
    const caller = from("203.0.113.7");
    const unused = await caller.registered();
    const used = await caller.registered();
    expect((await caller.signIn(used)).ok).toBe(true);
    advance(599);
    expect(await known(caller, unused)).toBe(true);
    advance(1);
    expect(await known(caller, unused)).toBe(false);
    // The person is told why, and what the application must do.
    expect(await (await caller.authorize(unused)).text()).toContain(
      "A registration no token was issued to is kept 10 minutes: the application must register again.",
    );
    expect((await caller.signIn(used)).ok).toBe(true);
    // Used, it lasts registration.clientTtlSec (90 days) from its first token.
    advance(90 * 86_400 - 601);
    expect(await known(caller, used)).toBe(true);
    advance(1);
    expect(await known(caller, used)).toBe(false);
  });

  it("at maxUnusedClients, the oldest of the address holding the most gives way; nobody is refused, and used clients stay", async () => {
    const { from } = setup({ limits: { maxUnusedClients: 3 } });
    const [a, b, c, d] = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"].map((ip) => from(ip)) as [
      Caller,
      Caller,
      Caller,
      Caller,
    ];
    const a1 = await a.registered();
    const a2 = await a.registered();
    const b1 = await b.registered();
    const c1 = await c.registered();
    expect(await known(c, a1)).toBe(false);
    for (const id of [a2, b1, c1]) expect(await known(c, id)).toBe(true);
    // a2 is used: it leaves the unused ones, and later newcomers push out unused ones only.
    expect((await a.signIn(a2)).ok).toBe(true);
    const d1 = await d.registered();
    const d2 = await d.registered();
    expect(await known(d, a2)).toBe(true);
    expect(await known(d, d2)).toBe(true);
    expect((await Promise.all([b1, c1, d1].map((id) => known(d, id)))).filter(Boolean)).toHaveLength(2);
  });

  it("one address holds at most maxClientsPerCaller unused registrations: its own oldest gives way, others keep theirs", async () => {
    const { from } = setup({ limits: { register: false, maxClientsPerCaller: 2 } });
    const flooder = from("203.0.113.7");
    const other = await from("198.51.100.7").registered();
    const first = await flooder.registered();
    const second = await flooder.registered();
    const third = await flooder.registered();
    expect(await known(flooder, first)).toBe(false);
    for (const id of [second, third, other]) expect(await known(flooder, id)).toBe(true);
  });
});

describe("clients someone signed in with", () => {
  /** `person` signs in with `clientId` through the provider, from `caller`, allows it, and the client redeems the code: the token answer's status. */
  async function signInAs(caller: Caller, clientId: string, person: string) {
    const browser = caller.browser();
    const { verifier, challenge } = pkce();
    const at = authorizationUrl(clientId, challenge);
    const started = await browser.request(at);
    const state = new URL(started.headers.get("location") as string).searchParams.get("state");
    const back = await browser.request(`${ISSUER}/callback?code=${person}&state=${state}`);
    browser.page = await back.text();
    expect(back.status, browser.page).toBe(200);
    const allowed = await browser.answer(at, "approve");
    const code = new URL(allowed.headers.get("location") as string).searchParams.get("code") as string;
    const token = await caller.send(`${ISSUER}/token`, {
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
    return token.status;
  }

  it("at maxClients, the oldest client of the person holding the most gives way", async () => {
    const { from } = setup({ limits: { maxClients: 3 }, upstream: redirectingUpstream() });
    const caller = from("203.0.113.7");
    const ids = [];
    for (const person of ["ada", "ada", "bob", "carol"]) {
      const id = await caller.registered();
      ids.push(id);
      // The token makes it a used client, that person's.
      expect(await signInAs(caller, id, person)).toBe(200);
    }
    const [ada1, ada2, bob, carol] = ids as [string, string, string, string];
    expect(await known(caller, ada1)).toBe(false);
    for (const id of [ada2, bob, carol]) expect(await known(caller, id)).toBe(true);
  });
});

describe("sign-ins under way", () => {
  it("one not finished expires after 10 minutes: a late Allow gets no code", async () => {
    const { from, advance, client } = setup();
    const clientId = await client();
    const caller = from("203.0.113.7");
    const late = await atConsent(caller, clientId);
    const inTime = await atConsent(caller, clientId);
    advance(599);
    expect(await allowed(inTime)).toBe(true);
    advance(1);
    expect(await allowed(late)).toBe(false);
  });

  it("at maxSignIns, the oldest of the address holding the most ends, and the newcomer's starts", async () => {
    const { from, client, memory } = setup({ limits: { maxSignIns: 2 }, registration: { unusedClientTtlSec: 3600 } });
    const clientId = await client();
    const a = from("203.0.113.1");
    const oldest = await atConsent(a, clientId);
    const newer = await atConsent(a, clientId);
    const newcomer = await atConsent(from("198.51.100.7"), clientId);
    expect(await allowed(oldest)).toBe(false);
    expect(await allowed(newer)).toBe(true);
    expect(await allowed(newcomer)).toBe(true);
    // Decided or displaced, nothing of the three sign-ins is kept: the client and the two codes are all.
    expect(memory.held().records).toBe(1 + 2);
  });

  it("one address holds at most maxSignInsPerCaller: its own oldest ends, others' go on", async () => {
    const { from, client } = setup({ limits: { maxSignInsPerCaller: 2 } });
    const clientId = await client();
    const other = await atConsent(from("198.51.100.7"), clientId);
    const a = from("203.0.113.1");
    const first = await atConsent(a, clientId);
    const second = await atConsent(a, clientId);
    const third = await atConsent(a, clientId);
    expect(await allowed(first)).toBe(false);
    for (const s of [second, third, other]) expect(await allowed(s)).toBe(true);
  });

  it("a sign-in through an upstream provider counts once, from /authorize to the person's decision", async () => {
    const { from, client } = setup({ limits: { maxSignIns: 2 }, upstream: redirectingUpstream() });
    const clientId = await client();
    const browser = from("203.0.113.1").browser();
    const at = authorizationUrl(clientId, pkce().challenge);
    const started = await browser.request(at);
    const state = new URL(started.headers.get("location") as string).searchParams.get("state");
    const back = await browser.request(`${ISSUER}/callback?code=ada&state=${state}`);
    browser.page = await back.text();
    // Another sign-in starts: two under way, room for both, none displaced.
    const other = from("198.51.100.7").browser();
    expect((await other.request(at)).status).toBe(302);
    expect(await allowed({ browser, at })).toBe(true);
  });
});
