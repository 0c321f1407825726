import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createMcpServer } from "mcpkit/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/authorization-server.js";
import { protectedMcp } from "../auth/helpers.js";
import { type Running, serveHttp } from "../cli-call/helpers.js";
import { browserForTests, connected, inspectInBrowser, startInspect } from "./browser.js";
import {
  answerElicitation,
  countMessages,
  fillAndSubmitToolForm,
  followListChanges,
  getPromptWithCompletion,
  messageCount,
  progressThenCancel,
  readResourceAndReceiveUpdate,
  renderApp,
  roundsGrouped,
  runATask,
  see,
  show,
} from "./scenarios.js";

// `mcpkit inspect http://…/mcp` against `mcpkit serve everything --port 0`, in a real
// browser: the modern era first (auto), then the page reconnects in the legacy era.

const browser = browserForTests();
let page: Page;
let served: { url: string; server: Running };
let origin: string;

beforeAll(async () => {
  served = await serveHttp();
  ({ page, origin } = await inspectInBrowser(browser, [served.url]));
}, 30_000);

afterAll(async () => {
  served?.server.child.kill();
});

for (const era of ["modern", "legacy"] as const) {
  describe(`the inspector over HTTP, ${era} era`, () => {
    if (era === "legacy")
      it("reconnects in the legacy era from the page", async () => {
        await show(page, "server");
        await page.getByLabel("Protocol era").selectOption("legacy");
        await page.getByRole("button", { name: "Reconnect" }).click();
        await see(page.getByTestId("revision"), "2025-11-25");
        await connected(page);
      });
    else
      it("finds the newest era the server speaks", async () => {
        await see(page.getByTestId("revision"), "2026-07-28");
      });

    it("fills and submits a tool form generated from its inputSchema", () => fillAndSubmitToolForm(page));
    it("shows a call's progress and cancels it", () => progressThenCancel(page));
    it("answers an elicitation form in the page", () => answerElicitation(page));
    it("reads a resource and receives its update", () =>
      readResourceAndReceiveUpdate(page, `changed over HTTP, ${era}`));
    it("gets a prompt with argument completion", () => getPromptWithCompletion(page));
    it("follows the server's list changes without a refresh", () => followListChanges(page));
    it("renders an MCP App and carries its tool call", () => renderApp(page));
    it("counts the messages of a call in the protocol view", () => countMessages(page));
    it("runs a tool as a task and follows it in the tasks view", () => runATask(page));
    it("groups a call that asks for input into one exchange", () => roundsGrouped(page, era));

    it("shows each HTTP exchange with its Mcp-* headers in the network view", async () => {
      await show(page, "network");
      const posts = page.locator('table.network tr.exchange[data-method="POST"]');
      await see(posts, "tools/call");
      const call = posts.filter({ hasText: "tools/call" }).last();
      await see(call.locator("td.headers"), "mcp-protocol-version");
      if (era === "modern") {
        // 2026-07-28 names the method and tool in headers, and keeps no session.
        await see(call.locator("td.headers"), "mcp-method: tools/call");
        await see(page.locator(".pane-head"), "none (2026-07-28 keeps none)");
      } else {
        await see(call.locator("td.headers"), "mcp-session-id");
        const session = await page.locator(".pane-head .mono").textContent();
        expect(session).toMatch(/^[\w-]{16,}$/);
        await see(call.locator("td.headers"), `mcp-session-id: ${session}`);
      }
    });
  });
}

describe("the inspector's page cannot be driven by another site", () => {
  let evil: Server;
  afterAll(() => evil?.close());

  it("refuses a tool call posted by a page on another local port, which shares the cookie's site", async () => {
    evil = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      // Another origin on 127.0.0.1 is the same *site*: SameSite lets the cookie through,
      // so only the Origin check stands between this page and the server.
      res.end(`<!doctype html><script>
        fetch(${JSON.stringify(`${origin}/api/tools/call`)}, {
          method: "POST", mode: "no-cors", credentials: "include",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ name: "echo", arguments: { text: "from another site" } }),
        }).finally(() => { document.title = "sent"; });
      </script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
    const before = await messageCount(page, "tools/call");
    const other = await browser.context.newPage();
    await other.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
    await other.waitForFunction(`document.title === "sent"`);
    await other.close();
    // A call that got through would be in the protocol view: the page's own call proves it is live.
    await see(await callEcho(page), "after the attempt");
    expect(await messageCount(page, "tools/call")).toBe(before + 2);
  });
});

async function callEcho(page: Page) {
  await show(page, "tools");
  await page.click('.list-pane [data-tool="echo"]');
  await page.locator('[id="arg-echo.text"]').fill("after the attempt");
  await page.getByRole("button", { name: "Call tool" }).click();
  return page.locator('.detail-pane .outcome[data-latest="true"]');
}

describe("signing in through the browser", () => {
  let as: TestAuthorizationServer;
  let mcp: Awaited<ReturnType<typeof protectedMcp>>;
  afterAll(async () => {
    await mcp?.close();
    await as?.close();
  });

  it("shows the sign-in link; the authorization server sends the browser back and the inspector connects", async () => {
    as = await startAuthorizationServer();
    const vault = createMcpServer({ name: "vault", version: "1" });
    vault.tool(
      "whoami",
      { scopes: ["tools:read"] },
      (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`,
    );
    mcp = await protectedMcp(vault, as);
    const started = await startInspect([mcp.url]);
    const signIn = await browser.context.newPage();
    await signIn.goto(started.url);
    const link = signIn.getByRole("link", { name: "Sign in" });
    await link.waitFor();
    expect(await link.getAttribute("href")).toMatch(new RegExp(`^${as.issuer}/authorize\\?`));
    const [popup] = await Promise.all([signIn.waitForEvent("popup"), link.click()]);
    await see(popup.locator("body"), "Signed in");
    expect(popup.url()).toMatch(new RegExp(`^${started.origin}/oauth/callback\\?code=`));
    await popup.close();
    await connected(signIn);
    await see(signIn.locator(".server-name"), "vault");
    expect(as.authorizations).toHaveLength(1);
    expect(as.authorizations[0]?.get("redirect_uri")).toBe(
      `${started.origin.replace("localhost", "127.0.0.1")}/oauth/callback`,
    );
    // Reconnecting, in the other era, keeps the sign-in: its tokens and their DPoP key stay with the inspector.
    await show(signIn, "server");
    await see(signIn.getByTestId("revision"), "2026-07-28");
    await signIn.getByLabel("Protocol era").selectOption("legacy");
    await signIn.getByRole("button", { name: "Reconnect" }).click();
    await see(signIn.getByTestId("revision"), "2025-11-25");
    await connected(signIn);
    expect(as.authorizations).toHaveLength(1);
    await signIn.close();
    started.inspector.child.kill("SIGTERM");
  });
});
