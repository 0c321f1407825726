import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { notesEntry, textOf } from "../gateway/helpers.js";
import { type GatewayProcess, startGatewayProcess } from "../gateway/process.js";
import { browserForTests, inspectInBrowser } from "./browser.js";
import { see, show } from "./scenarios.js";

// `mcpkit inspect` connected to `mcpkit gateway --port`, in a real browser: the Server
// view shows the gateway's upstreams from its /healthz (the inspector runs on the
// gateway's machine, so it is told why one failed), and follows one killed and restarted.

const browser = browserForTests();
let page: Page;
let gateway: GatewayProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcpkit-inspect-gateway-"));
  const config = join(dir, "team.mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { notes: notesEntry("notes"), other: notesEntry("other") } }));
  chmodSync(config, 0o600);
  gateway = await startGatewayProcess(config);
  ({ page } = await inspectInBrowser(browser, [gateway.url]));
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const row = (name: string) => page.locator(`[data-testid="gateway-health"] tr[data-upstream="${name}"]`);

describe("the inspector connected to a gateway", () => {
  it("shows each upstream's state in the Server view", async () => {
    await show(page, "server");
    await see(page.getByTestId("gateway-status"), "ok");
    // Connecting started them (a gateway starts its upstreams on a client's first request).
    await see(row("notes").getByTestId("upstream-state"), "ready");
    await see(row("other").getByTestId("upstream-state"), "ready");
    await see(row("notes").getByTestId("upstream-restarts"), "0");
  });

  it("follows an upstream killed and started again, with why it stopped", async () => {
    const client = new Client({ name: "killer", version: "1" });
    await client.connect(streamableHttpClientTransport(gateway.url));
    const pid = Number(textOf(await client.callTool("notes_pid")));
    await client.close();
    process.kill(pid, "SIGKILL");
    await see(row("notes").getByTestId("upstream-error"), /killed by SIGKILL/);
    await see(row("notes").getByTestId("upstream-restarts"), "1");
    await see(row("notes").getByTestId("upstream-state"), "ready");
    await see(row("other").getByTestId("upstream-restarts"), "0");
  }, 30_000);
});
