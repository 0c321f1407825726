import { describe, expect, it } from "vitest";
import { Browser } from "./browser.js";
import { pkce, REDIRECT } from "./harness.js";
import { authorizationUrl, ISSUER, redirectingUpstream, setup } from "./in-process.js";

// A sign-in belongs to the browser it runs in: the provider's answer and the person's
// decision count only from that browser, checked before anything is spent, so a request
// from another browser (holding the link, the state, the form) neither succeeds nor
// spoils the person's sign-in. The cookie that says so is always the server's own: a new
// secret when the sign-in starts and again once the person signed in, never one the
// browser brought.

/** The cookie a response sets for a sign-in: its name and value. */
function signInCookie(response: Response): { name: string; value: string } {
  const line = response.headers.getSetCookie().find((c) => c.startsWith("mcpkit-sign-in-"));
  if (!line) throw new Error(`no sign-in cookie in ${JSON.stringify(response.headers.getSetCookie())}`);
  const pair = line.split(";")[0] as string;
  return { name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) };
}

/** Starts a sign-in through the provider in `browser`: the state the provider got, and where it started. */
async function started(browser: Browser, clientId: string) {
  const at = authorizationUrl(clientId, pkce().challenge);
  const response = await browser.request(at);
  expect(response.status).toBe(302);
  const state = new URL(response.headers.get("location") as string).searchParams.get("state") as string;
  return { at, state, cookie: signInCookie(response) };
}

/** The provider sends `browser` back, `person` signed in: the consent page (kept as the browser's page). */
async function back(browser: Browser, state: string, person = "ada") {
  const response = await browser.request(`${ISSUER}/callback?code=${person}&state=${state}`);
  browser.page = await response.text();
  return response;
}

describe("a sign-in continues in the browser it started in", () => {
  it("an answer to the consent page from another browser is refused and spends nothing: the person's own answer goes through", async () => {
    const { from, client } = setup();
    const clientId = await client();
    const person = from("203.0.113.7").browser();
    const at = authorizationUrl(clientId, pkce().challenge);
    await person.authorize(at, { until: REDIRECT, answer: "stop" });
    // Someone else's browser, with the very form (the decision id) the person was shown.
    const stranger = from("198.51.100.9").browser();
    stranger.page = person.page;
    const refused = await stranger.answer(at, "approve");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("location")).toBeNull();
    expect(await refused.text()).toContain("another browser");
    const answered = await person.answer(at, "approve");
    expect(answered.status).toBe(302);
    expect(new URL(answered.headers.get("location") as string).searchParams.get("code")).toMatch(/^[\w-]{43}$/);
  });

  it("the provider's answer arriving in another browser is refused and spends nothing", async () => {
    const { from, client } = setup({ upstream: redirectingUpstream() });
    const clientId = await client();
    const person = from("203.0.113.7").browser();
    const { at, state } = await started(person, clientId);
    // The link back from the provider, opened elsewhere (leaked, or sent to someone).
    const elsewhere = await back(new Browser((url, init) => from("198.51.100.9").send(url, init)), state, "mallory");
    expect(elsewhere.status).toBe(403);
    const home = await back(person, state);
    expect(home.status).toBe(200);
    expect(person.page).toContain("ada via Example IdP");
    expect((await person.answer(at, "approve")).status).toBe(302);
  });

  it("two sign-ins in one browser at once both finish (a cookie each)", async () => {
    const { from, client } = setup({ upstream: redirectingUpstream() });
    const clientId = await client();
    const browser = from("203.0.113.7").browser();
    const first = await started(browser, clientId);
    const second = await started(browser, clientId);
    expect(first.cookie.name).not.toBe(second.cookie.name);
    await back(browser, second.state);
    expect((await browser.answer(second.at, "approve")).status).toBe(302);
    await back(browser, first.state);
    expect((await browser.answer(first.at, "approve")).status).toBe(302);
  });
});

describe("the sign-in cookie is always the server's own", () => {
  it("/authorize sets a new secret whatever cookies the browser brings", async () => {
    const { from, client } = setup({ upstream: redirectingUpstream() });
    const clientId = await client();
    const browser = from("203.0.113.7").browser();
    const chosen = "a".repeat(43);
    browser.cookies(ISSUER).set("mcpkit-sign-in", chosen);
    const { cookie } = await started(browser, clientId);
    expect(cookie.value).toMatch(/^[\w-]{43}$/);
    expect(cookie.value).not.toBe(chosen);
  });

  it("a cookie value known before the person signs in (planted: session fixation) decides nothing: signed in, the browser gets a new one", async () => {
    const { from, client } = setup({ upstream: redirectingUpstream() });
    const attackersClient = await client();
    // The attacker starts a sign-in in their own browser, and has its cookie and state...
    const attacker = from("198.51.100.66").browser();
    const { state, cookie } = await started(attacker, attackersClient);
    // ...plants that cookie in the victim's browser and sends the victim to the provider,
    // where the victim signs in as themselves and is sent back.
    const victim = from("203.0.113.7").browser();
    victim.cookies(ISSUER).set(cookie.name, cookie.value);
    const consent = await back(victim, state, "victim");
    expect(consent.status).toBe(200);
    const rotated = signInCookie(consent);
    expect(rotated.name).toBe(cookie.name);
    expect(rotated.value).not.toBe(cookie.value);
    // The attacker, with the old cookie and the sign-in's id, answers Allow for the victim: refused.
    const forged = await attacker.request(`${ISSUER}/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ISSUER },
      body: new URLSearchParams({ decision: state, answer: "approve" }),
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("location")).toBeNull();
    // The victim's own answer is still theirs to give.
    const denied = await victim.answer(authorizationUrl(attackersClient, "x"), "deny");
    expect(new URL(denied.headers.get("location") as string).searchParams.get("error")).toBe("access_denied");
  });

  it("once the person decided, the sign-in's cookie is removed", async () => {
    const { from, client } = setup();
    const clientId = await client();
    const browser = from("203.0.113.7").browser();
    const at = authorizationUrl(clientId, pkce().challenge);
    await browser.authorize(at, { until: REDIRECT, answer: "stop" });
    expect([...browser.cookies(ISSUER).keys()]).toEqual([expect.stringMatching(/^mcpkit-sign-in-/)]);
    await browser.answer(at, "approve");
    expect(browser.cookies(ISSUER).size).toBe(0);
  });
});
