import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Browser, openBrowser } from "../chromium.js";
import { type Harness, pkce, rawClient, startHarness } from "./harness.js";

// The consent page in a real browser (Debian's chromium, driven by playwright-core): a
// person reads it, clicks Allow or Deny, and lands back at the application; a page on
// another origin cannot frame it to trick a click.

let browser: Browser;
let context: BrowserContext;
let app: Server;
let appUrl = "";
const landed: URL[] = [];

beforeAll(async () => {
  browser = await openBrowser({ viewport: { width: 900, height: 700 } });
  context = browser.context;
  // The application the person started the sign-in from: its redirect URI, and a page that frames the consent page.
  app = createServer((req, res) => {
    const url = new URL(req.url ?? "/", appUrl);
    if (url.pathname === "/callback") {
      landed.push(url);
      res.writeHead(200, { "content-type": "text/html" }).end("<h1>Back in the application</h1>");
      return;
    }
    const framed = url.searchParams.get("frame") ?? "";
    res.writeHead(200, { "content-type": "text/html" }).end(`<iframe id="victim" src="${framed}"></iframe>`);
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  app?.closeAllConnections();
  await new Promise<void>((resolve) => app?.close(() => resolve()) ?? resolve());
});

let h: Harness;
afterEach(async () => {
  await h?.close();
});

async function consentUrl() {
  h = await startHarness();
  const client = rawClient(h);
  const registered = await client.register({ client_name: "Notes App", redirect_uris: [`${appUrl}/callback`] });
  return client.authorizationUrl(registered, { code_challenge: pkce().challenge, redirect_uri: `${appUrl}/callback` });
}

describe("the consent page in a browser", () => {
  it("shows who asks for what; Allow brings the person back to the application with a code", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(await consentUrl());
    expect(await page.getByRole("heading").innerText()).toBe("Allow Notes App to use mcpkit as you?");
    expect(await page.locator("dl").innerText()).toContain("Test User via Development sign-in");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${appUrl}/callback?**`);
    const back = landed.at(-1) as URL;
    expect(back.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(back.searchParams.get("iss")).toBe(h.issuer);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Deny brings the person back with access_denied", async () => {
    const page = await context.newPage();
    await page.goto(await consentUrl());
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(`${appUrl}/callback?**`);
    expect((landed.at(-1) as URL).searchParams.get("error")).toBe("access_denied");
    await page.close();
  });

  it("cannot be framed by another site", async () => {
    const page = await context.newPage();
    const url = await consentUrl();
    // "load" waits for the frame too, rendered or refused.
    await page.goto(`${appUrl}/?frame=${encodeURIComponent(url)}`, { waitUntil: "load" });
    // The browser refuses to render it (CSP frame-ancestors 'none', X-Frame-Options: DENY): no button to click.
    expect(await page.frameLocator("#victim").getByRole("button", { name: "Allow" }).count()).toBe(0);
    await page.close();
  });
});
