import { createStreamableHttpHandler, type Listening, listen } from "mcpkit/http";
import { createServer as createMcpServer } from "mcpkit/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Running, serveHttp } from "../cli-call/helpers.js";
import { browserForTests, connected, inspectInBrowser, startInspect } from "./browser.js";
import { callTool, see, show } from "./scenarios.js";

// The Server view's connection panel: where the inspector connects and how, with the
// credentials it holds listed by name only, and the server copied as another client's
// configuration with its secrets left out.

/** A placeholder as a client expands it: `${NAME}` (written so, not as a template). */
const $ = (name: string) => `\${${name}}`;

const SECRETS = ["cli-secret-1", "cli-key-2", "page-token-3"];

const browser = browserForTests();
let page: Page;
let everything: { url: string; server: Running };
let recorder: Listening;
const received: Record<string, string>[] = [];

beforeAll(async () => {
  everything = await serveHttp();
  const handler = createStreamableHttpHandler(createMcpServer({ name: "recorder", version: "1" }));
  recorder = await listen({
    fetch: (request) => {
      // The MCP endpoint's requests (the Server view also asks /healthz, a gateway's, with no header).
      if (new URL(request.url).pathname === "/mcp") received.push(Object.fromEntries(request.headers));
      return handler.fetch(request);
    },
    close: () => handler.close(),
  });
  ({ page } = await inspectInBrowser(browser, [
    "-H",
    "Authorization: Bearer cli-secret-1",
    "-H",
    "X-Api-Key: cli-key-2",
    everything.url,
  ]));
}, 30_000);

afterAll(async () => {
  everything?.server.child.kill();
  await recorder?.close();
});

/** Fails if any view of the page holds a secret: the connection panel, the network, the protocol, the logs. */
async function noSecretShown(): Promise<void> {
  for (const view of ["server", "network", "protocol", "logs"]) {
    await show(page, view);
    const html = await page.content();
    for (const secret of SECRETS) expect([view, html.includes(secret)]).toEqual([view, false]);
  }
}

async function exported(label: string): Promise<string> {
  await show(page, "server");
  const card = page.getByTestId("config-export");
  await card.getByRole("button", { name: label }).click();
  await card.locator(`button[aria-pressed="true"]`, { hasText: label }).waitFor();
  return (await card.locator("pre").textContent()) ?? "";
}

const panel = () => page.getByRole("form", { name: "Connection" });

describe("the connection panel", () => {
  it("lists the command line's headers by name, and shows their values nowhere", async () => {
    await show(page, "server");
    for (const name of ["Authorization", "X-Api-Key"])
      await see(panel().locator(`[data-header="${name}"]`), `${name} value hidden`);
    await noSecretShown();
  });

  it("copies the server as .mcp.json's, Claude Desktop's and VS Code's configuration, secrets left out", async () => {
    const mcpJson = await exported("mcp.json");
    expect(mcpJson).toContain(`"url": "${everything.url}"`);
    expect(mcpJson).toContain(`"Authorization": "${$("AUTHORIZATION")}"`);
    expect(mcpJson).toContain(`"X-Api-Key": "${$("X_API_KEY")}"`);
    const desktop = await exported("Claude Desktop");
    expect(desktop).toContain('"proxy"');
    expect(desktop).toContain('"Authorization: <your Authorization>"');
    const vscode = await exported("VS Code");
    expect(vscode).toContain(`"Authorization": "${$("input:authorization")}"`);
    expect(vscode).toContain('"password": true');
    for (const text of [mcpJson, desktop, vscode]) for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it("connects to another URL with the headers and bearer token typed, and the command line's stay behind", async () => {
    await show(page, "server");
    const recorderUrl = new URL("/mcp", recorder.url).href;
    await panel().getByLabel("URL").fill(recorderUrl);
    await panel().getByRole("button", { name: "Add a header" }).click();
    await panel().getByLabel("Header name").fill("X-Page");
    await panel().getByLabel("Header value").fill("typed in the page");
    await panel().getByLabel("Bearer token").fill("page-token-3");
    const before = received.length;
    await panel().getByRole("button", { name: "Reconnect" }).click();
    await see(page.locator(".server-name"), "recorder");
    await connected(page);
    const got = received.slice(before);
    expect(got.length).toBeGreaterThan(0);
    for (const headers of got) {
      expect(headers).toMatchObject({ authorization: "Bearer page-token-3", "x-page": "typed in the page" });
      expect(headers["x-api-key"]).toBeUndefined();
    }
    // Held now, by name: the token typed is not shown back.
    for (const name of ["Authorization", "X-Page"]) await see(panel().locator(`[data-header="${name}"]`), name);
    expect(await panel().getByLabel("Bearer token").inputValue()).toBe("");
    await noSecretShown();
    expect(await exported("mcp.json")).toContain(`"X-Page": "${$("X_PAGE")}"`);
  });

  it("reconnects in a revision chosen by name, with the request timeout set", async () => {
    await show(page, "server");
    await panel().getByLabel("URL").fill(everything.url);
    await panel().getByLabel("Protocol era").selectOption("2025-06-18");
    await panel().getByLabel("Request timeout, s").fill("1");
    await panel().getByRole("button", { name: "Reconnect" }).click();
    await see(page.getByTestId("revision"), "2025-06-18");
    // Back at the command line's origin: its headers are held again.
    await see(panel().locator('[data-header="X-Api-Key"]'), "value hidden");
    expect(await panel().getByLabel("Request timeout, s").inputValue()).toBe("1");
    const outcome = await callTool(page, "test_slow", { steps: "1", ms: "3000" });
    await see(outcome, /Request tools\/call timed out after \d+ ms/);
  });

  it("offers a command only under --allow-spawn's list, and never an environment", async () => {
    const stdio = ["--", process.execPath, "-e", "setInterval(() => {}, 1000)"];
    for (const [flags, programs] of [
      [[], 0],
      [["--allow-spawn", "node,npx"], 3],
    ] as const) {
      const { url } = await startInspect([...flags, ...stdio]);
      const other = await browser.context.newPage();
      await other.goto(url);
      const form = other.getByRole("form", { name: "Connection" });
      await form.waitFor();
      expect(await form.getByLabel("Program").count()).toBe(programs === 0 ? 0 : 1);
      if (programs > 0) {
        await form.getByRole("button", { name: "Command" }).click();
        const options = await form.getByLabel("Program").locator("option").allTextContents();
        expect(options).toEqual([process.execPath, "node", "npx"]);
      }
      expect(await form.getByLabel(/environment|variable/i).count()).toBe(0);
      await other.close();
    }
  });
});
