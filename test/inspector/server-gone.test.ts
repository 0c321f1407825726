import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../packages/mcpkit/test/stdio/helpers.js";
import { type Running, serveHttp, start, until } from "../cli-call/helpers.js";
import { answeredSoFar, browserForTests, connected, inspectInBrowser, pingsAnswered } from "./browser.js";
import { see, show } from "./scenarios.js";

// An HTTP server that goes away while the inspector's page is open, in a real browser:
// `mcpkit serve everything --port 0` in a child process, killed with SIGKILL. Over HTTP
// nothing closes, so the inspector pings the server while a page is open, and at once
// when one of the server's streams ends (a legacy session's GET stream, a 2026-07-28
// subscriptions/listen stream).

const browser = browserForTests();
const servers: Running[] = [];

afterAll(async () => {
  for (const server of servers) server.child.kill("SIGKILL");
});

const REVISION = { modern: "2026-07-28", legacy: "2025-11-25" } as const;

/** A server of its own, and the inspector's page connected to it in `era`, pinging every `seconds`. */
async function inspect(
  era: "modern" | "legacy",
  seconds: number,
): Promise<{ page: Page; url: string; server: Running }> {
  const served = await serveHttp();
  servers.push(served.server);
  const { page } = await inspectInBrowser(browser, ["--protocol", era, "--ping-interval", String(seconds), served.url]);
  await show(page, "server");
  await see(page.getByTestId("revision"), REVISION[era]);
  return { page, url: served.url, server: served.server };
}

async function kill(server: Running): Promise<void> {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGKILL");
  await exited;
}

/** What the header and the banner say once the server is gone: that, and why. */
async function seeItGone(page: Page): Promise<void> {
  const why = /^The server stopped answering \(connection (refused|reset|closed)\)$/;
  await page
    .getByTestId("status")
    .filter({ hasText: /^Disconnected$/ })
    .waitFor({ timeout: 30_000 });
  await see(page.getByTestId("status-reason"), why);
  await see(page.getByTestId("connection-lost"), "Disconnected: The server stopped answering");
}

for (const era of ["modern", "legacy"] as const) {
  describe(`an HTTP server that goes away, ${era} era`, () => {
    let page: Page;
    let url: string;
    let server: Running;

    beforeAll(async () => {
      ({ page, url, server } = await inspect(era, 0.2));
    }, 30_000);

    it("stays Connected while the idle server answers its pings", async () => {
      const before = await answeredSoFar(page);
      await pingsAnswered(page, before + 2);
      await connected(page);
      expect(await page.getByTestId("connection-lost").count()).toBe(0);
      expect(await page.getByTestId("status-reason").count()).toBe(0);
    });

    it("says it is disconnected, and why, soon after the server is killed", async () => {
      await kill(server);
      await seeItGone(page);
      // The reason stays in every view, with the way back.
      await show(page, "tools");
      await see(page.getByTestId("connection-lost"), "The server stopped answering");
    });

    it("reconnects from the page once the server is back on its port", async () => {
      const back = start(["serve", "everything", "--port", new URL(url).port]);
      await until(
        () => back.stderr.includes(`serving MCP on ${url}`),
        10_000,
        `the server to be back:\n${back.stderr}`,
      );
      await page.getByTestId("connection-lost").getByRole("button", { name: "Reconnect" }).click();
      await connected(page);
      await show(page, "server");
      await see(page.getByTestId("revision"), REVISION[era]);
      // The new connection's pings are counted from nothing, and answered.
      await pingsAnswered(page, 1);
      expect(await page.getByTestId("status-reason").count()).toBe(0);
    });
  });
}

describe("a killed server's stream ends long before a ping is due", () => {
  for (const era of ["modern", "legacy"] as const)
    it(`is noticed all the same, ${era} era`, async () => {
      // A ping every ten minutes: only the end of the server's stream can tell in time.
      const { page, server } = await inspect(era, 600);
      await kill(server);
      await seeItGone(page);
    }, 30_000);
});

describe("closing the inspector while a page is open and pings run", () => {
  const fixture = fileURLToPath(new URL("fixtures/close-with-a-page.mjs", import.meta.url));
  for (const era of ["modern", "legacy"] as const)
    it(`leaves nothing running: the process exits by itself, ${era} era`, async () => {
      const served = await serveHttp();
      servers.push(served.server);
      const child = spawn(process.execPath, [fixture, served.url, era], { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
      });
      const code = await within(
        new Promise<number | null>((resolve) => child.once("exit", resolve)),
        15_000,
        "the process to exit by itself after the inspector closed",
      ).finally(() => child.kill("SIGKILL"));
      expect(output).toMatch(/^closed after \d+ pings answered\n$/);
      expect(code).toBe(0);
    }, 30_000);
});
