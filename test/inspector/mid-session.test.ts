import type { AuthInfo } from "mcpkit/auth";
import { createStreamableHttpHandler, type Listening, listen, type StreamableHttpHandler } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../authorization-server/harness.js";
import {
  answeredSoFar,
  browserForTests,
  connected,
  openInspector,
  pingsAnswered,
  showsStatus,
  startInspect,
} from "./browser.js";
import { callTool, see, show } from "./scenarios.js";

// What changes under a connection that stays up, in a real browser: a sign-in the server
// asks for again mid-session (its token revoked at mcpkit's authorization server), and a
// session the server forgot (it restarted), which the Client renews by itself.

const browser = browserForTests();
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/** Each test's page and inspector end with it, passed or not, so none outlives it to disturb the next. */
const ending: (() => unknown)[] = [];
afterEach(async () => {
  for (const end of ending.splice(0)) await end();
});

/** `mcpkit inspect ARGS…` for this test only. */
async function inspect(args: string[]): Promise<{ url: string }> {
  const started = await startInspect(args);
  ending.push(() => started.inspector.child.kill("SIGTERM"));
  return started;
}

/**
 * The person follows the page's Sign in link: mcpkit's authorization server signs them in
 * at once (its development sign-in) and asks whether the inspector may act for them;
 * `answer` is their choice. Resolves with what the inspector's callback said.
 */
async function signIn(page: Page, answer: "Allow" | "Deny"): Promise<string> {
  const link = page.getByRole("link", { name: "Sign in" });
  const [popup] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  await popup.getByRole("button", { name: answer }).click();
  await popup.waitForURL(/\/oauth\/callback\?/);
  const said = (await popup.locator("body").textContent()) ?? "";
  await popup.close();
  return said;
}

describe("a sign-in the server asks for again while connected", () => {
  let harness: Harness;
  /** The credentials of the calls to `whoami`, newest last: what the test revokes. */
  const seen: AuthInfo[] = [];

  beforeAll(async () => {
    const vault = createServer({ name: "vault", version: "1" });
    vault.tool("whoami", {}, (_args, ctx) => {
      seen.push(ctx.auth as AuthInfo);
      return `you are ${(ctx.auth as AuthInfo).subject}`;
    });
    harness = await startHarness({ server: vault });
    closers.push(() => harness.close());
  }, 30_000);

  /** Revokes the grant of the last call's token at the authorization server (RFC 7009): its tokens stop working. */
  async function revokeTheToken(): Promise<void> {
    const auth = seen.at(-1) as AuthInfo;
    const response = await fetch(`${harness.issuer}/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: auth.token, client_id: auth.clientId as string }),
    });
    expect(response.status).toBe(200);
  }

  /** The inspector in `era`, pinging often, signed in through the page; its page shows the Tools view. */
  async function signedIn(era: "modern" | "legacy"): Promise<Page> {
    const started = await inspect(["--protocol", era, "--ping-interval", "0.3", harness.resource]);
    const page = await browser.context.newPage();
    ending.push(() => page.close());
    page.on("pageerror", (error) => {
      throw error;
    });
    await page.goto(started.url);
    expect(await signIn(page, "Allow")).toContain("Signed in");
    await connected(page);
    await see(await callTool(page, "whoami", {}), "you are dev:test-user");
    return page;
  }

  for (const era of ["modern", "legacy"] as const)
    it(`returns to Connected once it is done, the call answered and pings answered again, ${era} era`, async () => {
      const page = await signedIn(era);
      await revokeTheToken();
      // The next call gets 401 (or a ping does, just before it): the page asks to sign in.
      const result = callTool(page, "whoami", {});
      await showsStatus(page, "Sign-in needed");
      expect(await signIn(page, "Allow")).toContain("Signed in");
      await see(await result, "you are dev:test-user");
      await connected(page);
      expect(await page.getByTestId("status-reason").count()).toBe(0);
      // The same connection, pinged again: its count goes on from where it was.
      await show(page, "server");
      await pingsAnswered(page, (await answeredSoFar(page)) + 2);
      await connected(page);
    }, 60_000);

  it("says Disconnected, and why, when the person declines; Reconnect signs in anew", async () => {
    const page = await signedIn("legacy");
    await revokeTheToken();
    const result = callTool(page, "whoami", {});
    await showsStatus(page, "Sign-in needed");
    expect(await signIn(page, "Deny")).toContain("The sign-in did not complete (access_denied)");
    await showsStatus(page, "Disconnected");
    await see(
      page.getByTestId("status-reason"),
      "The sign-in failed: The authorization server answered access_denied: The person declined",
    );
    await see(page.getByTestId("connection-lost"), "The sign-in failed");
    // The call that waited on the sign-in fails with it.
    await see(await result, "needs authorization, which failed: The authorization server answered access_denied");
    // No ping runs while disconnected; Reconnect asks for a sign-in again.
    await page.getByTestId("connection-lost").getByRole("button", { name: "Reconnect" }).click();
    expect(await signIn(page, "Allow")).toContain("Signed in");
    await connected(page);
    await see(await callTool(page, "whoami", {}), "you are dev:test-user");
  }, 60_000);
});

describe("a session the server forgot", () => {
  /** An MCP server whose tool tells its version and the session it was called in. */
  const vault = (version: string) => {
    const server = createServer({ name: "vault", version });
    server.tool("whoami", {}, (_args, ctx) => `vault ${version}, session ${ctx.sessionId}`);
    return server;
  };
  let handler: StreamableHttpHandler;
  let listening: Listening;

  beforeAll(async () => {
    handler = createStreamableHttpHandler(vault("1"));
    listening = await listen({ fetch: (request) => handler.fetch(request) });
    closers.push(() => listening.close());
  });

  /** A new server behind the same port, as after a restart: it knows no session. */
  async function restart(version: string): Promise<void> {
    const old = handler;
    const next = createStreamableHttpHandler(vault(version));
    handler = next;
    closers.push(() => next.close());
    await old.close();
  }

  it("is shown renewed once the next request began a new one: its id, the server's new version", async () => {
    // No pings: the restart is not to be taken for the server going away.
    const started = await inspect([
      "--protocol",
      "legacy",
      "--ping-interval",
      "0",
      new URL("/mcp", listening.url).href,
    ]);
    const page = await openInspector(browser.context, started.url);
    ending.push(() => page.close());
    await show(page, "server");
    const first = (await page.getByTestId("session-id").textContent()) as string;
    expect(first).toMatch(/^[\w-]{16,}$/);
    await see(await callTool(page, "whoami", {}), `vault 1, session ${first}`);

    await restart("2");
    const answer = await callTool(page, "whoami", {});
    await see(answer, "vault 2, session ");
    const renewed = /vault 2, session ([\w-]+)/.exec((await answer.textContent()) ?? "")?.[1] as string;
    expect(renewed).not.toBe(first);
    await show(page, "server");
    await see(page.getByTestId("session-id"), renewed);
    await see(page.locator(".server-name"), "vault 2");
    await connected(page);
    await show(page, "network");
    await see(page.locator(".pane-head .mono"), renewed);
    await show(page, "logs");
    await see(page.locator("main"), `a new one began (${renewed})`);
  }, 60_000);
});
