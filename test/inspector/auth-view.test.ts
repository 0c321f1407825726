import { createServer as createMcpServer } from "mcpkit/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/authorization-server.js";
import { protectedMcp } from "../auth/helpers.js";
import { browserForTests, connected, showsStatus, startInspect } from "./browser.js";
import { callTool, see, show } from "./scenarios.js";

// The authorization view: a sign-in step by step, each request and answer, from the
// server's 401 to the tokens and their refresh, with every secret hidden.

const browser = browserForTests();
let as: TestAuthorizationServer;
let mcp: Awaited<ReturnType<typeof protectedMcp>>;
let other: Awaited<ReturnType<typeof protectedMcp>> | undefined;
let page: Page;

beforeAll(async () => {
  as = await startAuthorizationServer();
  // Tokens shorter-lived than the client's refresh margin: the next request refreshes first.
  as.tokenLifetime = 2;
  const vault = createMcpServer({ name: "vault", version: "1" });
  vault.tool(
    "whoami",
    { scopes: ["tools:read"] },
    (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`,
  );
  mcp = await protectedMcp(vault, as);
  const { url } = await startInspect(["--ping-interval", "0", mcp.url]);
  page = await browser.context.newPage();
  await page.goto(url);
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await other?.close();
  await as?.close();
});

async function signIn(): Promise<void> {
  const link = page.getByRole("link", { name: "Sign in" }).first();
  const [popup] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  await see(popup.locator("body"), "Signed in");
  await popup.close();
  await connected(page);
}

/** The steps the view lists, by kind, in order. */
async function stepKinds(): Promise<string[]> {
  const steps = page.locator(".auth-step");
  const kinds: string[] = [];
  for (let i = 0; i < (await steps.count()); i++) kinds.push((await steps.nth(i).getAttribute("data-step")) ?? "");
  return kinds;
}

const step = (kind: string) => page.locator(`.auth-step[data-step="${kind}"]`).last();

/** Fails if the page holds a code, a refresh token, or a token (JWTs start eyJ) the authorization server issued. */
async function noSecretShown(): Promise<void> {
  const html = await page.content();
  const secrets = as.tokenRequests.flatMap((form) =>
    ["code", "code_verifier", "refresh_token"].map((k) => form.get(k)).filter((v): v is string => !!v),
  );
  expect(secrets.length).toBeGreaterThan(0);
  for (const secret of secrets) expect(html.includes(secret)).toBe(false);
  expect(html).not.toMatch(/eyJ[\w-]{10,}/);
}

/** The view, once the token step is answered, opens with a whole sign-in from the 401 on. */
async function seeSignInFromTheStart(): Promise<void> {
  await show(page, "auth");
  await step("token").locator(".pill").filter({ hasText: "200" }).waitFor();
  // Refreshes may follow at any time (these tokens live 2 s): the sign-in is the first seven.
  expect((await stepKinds()).slice(0, 7)).toEqual([
    "challenge",
    "resource-metadata",
    "server-metadata",
    "registration",
    "authorize",
    "callback",
    "token",
  ]);
}

describe("the authorization view", () => {
  it("walks a first sign-in step by step, each request with its answer", async () => {
    await signIn();
    await seeSignInFromTheStart();
    await see(step("challenge"), "www-authenticate");
    await see(step("resource-metadata"), as.issuer);
    await see(step("server-metadata"), `${as.issuer}/token`);
    await see(step("registration"), "client_id");
    await see(step("authorize"), '"code_challenge_method": "S256"');
    await see(step("callback"), '"code": "(hidden,');
    await see(step("token"), '"access_token": "(hidden,');
    await see(step("token"), '"grant_type": "authorization_code"');
    await noSecretShown();
  });

  it("shows a refresh when a token runs out, its refresh token hidden", async () => {
    // The client refreshes past half a token's life (a second here): calls until one does.
    for (let calls = 0; !as.grants.includes("refresh_token"); calls++) {
      expect(calls).toBeLessThan(500);
      await see(await callTool(page, "whoami", {}), "you are");
    }
    await show(page, "auth");
    await step("refresh").locator(".pill").filter({ hasText: "200" }).waitFor();
    await see(step("refresh"), '"grant_type": "refresh_token"');
    await see(step("refresh"), '"refresh_token": "(hidden,');
    expect(as.grants).toContain("refresh_token");
    await noSecretShown();
  });

  it("signs in again from the start on request: a new registration, a new authorization", async () => {
    const registered = as.registered.length;
    await page.getByRole("button", { name: "Sign in again" }).click();
    await showsStatus(page, "Sign-in needed");
    await signIn();
    await seeSignInFromTheStart();
    expect(as.registered.length).toBe(registered + 1);
    await noSecretShown();
  });

  it("keeps a sign-in for its server's origin: another server of the same authorization server signs in on its own", async () => {
    const vault = createMcpServer({ name: "vault-2", version: "1" });
    vault.tool("whoami", { scopes: ["tools:read"] }, () => "the other vault");
    other = await protectedMcp(vault, as);
    const registered = as.registered.length;
    const authorized = as.authorizations.length;
    await show(page, "server");
    const panel = page.getByRole("form", { name: "Connection" });
    await panel.getByLabel("URL").fill(other.url);
    await panel.getByRole("button", { name: "Reconnect" }).click();
    // Nothing of the first server's sign-in goes along: a registration and an authorization of its own.
    await showsStatus(page, "Sign-in needed");
    await signIn();
    await see(page.locator(".server-name"), "vault-2");
    expect(as.registered.length).toBe(registered + 1);
    expect(as.authorizations.length).toBe(authorized + 1);
    // Back at the first server: its sign-in is still held for it, no new one.
    await panel.getByLabel("URL").fill(mcp.url);
    await panel.getByRole("button", { name: "Reconnect" }).click();
    await see(page.locator(".server-name"), "vault");
    await connected(page);
    expect(as.authorizations.length).toBe(authorized + 1);
  });
});
