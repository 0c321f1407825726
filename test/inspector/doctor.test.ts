import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { serveHttp } from "../cli-call/helpers.js";
import { browserForTests, connected, showsStatus, startInspect } from "./browser.js";
import { see } from "./scenarios.js";

// A connection that fails says why step by step: the inspector runs the doctor (the
// module `mcpkit doctor` prints) on the same target and shows each step in the failure
// banner as it is decided, with the fix for each failed one.

const bannerServer = fileURLToPath(new URL("./fixtures/banner-server.mjs", import.meta.url));
const browser = browserForTests();
/** HTTP servers a test started: stopped after all, whatever the tests did. */
const started: { server: { child: { kill(): boolean } } }[] = [];

afterAll(async () => {
  for (const { server } of started) server.child.kill();
});

describe("the doctor where a connection failed", () => {
  it("finds the banner a stdio 'server' prints on stdout, and says to write it to stderr", async () => {
    const { url } = await startInspect(["--timeout", "2", "--", process.execPath, bannerServer]);
    const page = await browser.context.newPage();
    await page.goto(url);
    await showsStatus(page, "Failed");
    const diagnosis = page.getByTestId("connection-lost").getByTestId("diagnosis");
    // The steps come as they are decided, then the verdict.
    await see(diagnosis.locator('[data-check="command"][data-ok="true"]'), "started");
    const stdout = diagnosis.locator('[data-check="stdout"][data-ok="false"]');
    await see(stdout, "Weather server v1.2 listening on http://localhost:8080");
    await see(stdout, "Fix: Write logs and banners to stderr");
    await see(diagnosis.getByTestId("diagnosis-verdict"), "a client cannot use this server as it is");
    expect(await diagnosis.locator('[data-check="handshake"][data-ok="false"]').count()).toBe(1);
    await page.close();
  }, 60_000);

  it("finds the path that answers MCP when the URL given is the server's root", async () => {
    const served = await serveHttp();
    started.push(served);
    const root = new URL("/", served.url).href;
    const { url } = await startInspect([root]);
    const page = await browser.context.newPage();
    await page.goto(url);
    await showsStatus(page, "Failed");
    const diagnosis = page.getByTestId("diagnosis");
    await see(diagnosis.locator('[data-check="reachable"][data-ok="true"]'), "accepts connections");
    const endpoint = diagnosis.locator('[data-check="endpoint"][data-ok="false"]');
    await see(endpoint, `${root} is not an MCP endpoint`);
    await see(endpoint, `Fix: Use ${served.url}`);
    await see(diagnosis.getByTestId("diagnosis-verdict"), "1 error");

    // The right URL from the connection panel: connected, and the diagnosis goes with the failure.
    const panel = page.getByRole("form", { name: "Connection" });
    await panel.getByLabel("URL").fill(served.url);
    await panel.getByRole("button", { name: "Connect", exact: true }).click();
    await connected(page);
    expect(await page.getByTestId("diagnosis").count()).toBe(0);
    await page.close();
  }, 60_000);
});
