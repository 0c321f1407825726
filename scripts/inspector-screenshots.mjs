#!/usr/bin/env node
// Regenerates docs/inspector/*.png: `mcpkit inspect` against `mcpkit serve everything` over
// HTTP, driven in Debian's chromium (playwright-core), one screenshot per view. Run after
// `npm run build`: `npm run screenshots`.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "packages/cli/bin/mcpkit.js");
const out = join(root, "docs/inspector");
mkdirSync(out, { recursive: true });

const children = [];
/** Starts `mcpkit ARGS…` and resolves with the first match of `pattern` in its output. */
function mcpkit(args, pattern) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let text = "";
  return new Promise((resolve, reject) => {
    const look = (chunk) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match[1]);
    };
    child.stdout.setEncoding("utf8").on("data", look);
    child.stderr.setEncoding("utf8").on("data", look);
    child.once("exit", (code) => reject(new Error(`mcpkit ${args.join(" ")} exited (${code}):\n${text}`)));
  });
}

const profile = mkdtempSync(join(tmpdir(), "mcpkit-screenshots-"));
let context;
try {
  const server = await mcpkit(["serve", "everything", "--port", "0"], /serving MCP on (http:\/\/\S+\/mcp)/);
  // A root of a made-up project rather than this clone's folder, which the pictures would show.
  const url = await mcpkit(
    // A header from the command line: the connection panel lists it by name, its value hidden.
    ["inspect", "--root", "/home/ada/projects/mcpkit", "-H", "X-Api-Key: screenshot-key", server],
    /^(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m,
  );
  context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: "light",
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();

  const show = async (view) => {
    await page.click(`nav [data-view="${view}"]`);
    await page.locator(`nav [data-view="${view}"][aria-current="page"]`).waitFor();
  };
  const shot = async (name) => {
    await page.evaluate(() => document.activeElement?.blur?.());
    await page.screenshot({ path: join(out, `${name}.png`) });
    process.stdout.write(`docs/inspector/${name}.png\n`);
  };
  const callTool = async (name, fields = {}) => {
    await show("tools");
    await page.click(`.list-pane [data-tool="${name}"]`);
    for (const [field, value] of Object.entries(fields)) await page.locator(`[id="arg-${name}.${field}"]`).fill(value);
    const before = await page.locator(".detail-pane .outcome").count();
    await page.getByRole("button", { name: "Call tool" }).click();
    await page.locator(".detail-pane .outcome").nth(before).waitFor();
  };

  await shot("server");

  // The connection panel and "copy as client config": the header's value left out, a placeholder in its place.
  const exported = page.getByTestId("config-export");
  await exported.getByRole("button", { name: "mcp.json" }).click();
  await exported.locator("pre").waitFor();
  await exported.evaluate((card) => card.scrollIntoView({ block: "end" }));
  await shot("connection");

  await callTool("add", { a: "2", b: "40" });
  await shot("tools");

  // A generated form the browser refuses to send: what is wrong is said under each field.
  await show("tools");
  await page.click('.list-pane [data-tool="test_form_fields"]');
  await page.locator('[id="arg-test_form_fields.name"]').fill("Ada");
  await page.locator('[id="arg-test_form_fields.age"]').fill("36");
  await page.locator('[id="arg-test_form_fields.color"]').selectOption({ label: "green" });
  await page.locator('[id="arg-test_form_fields.alarm"]').fill("06:30");
  await page.locator('[id="arg-test_form_fields.email"]').fill("ada@example.com");
  await page.locator('[id="arg-test_form_fields.ratio"]').fill("0");
  await page.getByRole("button", { name: "Call tool" }).click();
  await page.locator(".detail-pane .field-error").nth(1).waitFor();
  // Tall enough for the tool's name and both refusals.
  await page.setViewportSize({ width: 1280, height: 1240 });
  await page.evaluate(() => document.getElementById("main")?.scrollTo(0, 0));
  await shot("tools-form");
  await page.setViewportSize({ width: 1280, height: 800 });

  await show("tools");
  await page.click('.list-pane [data-tool="test_slow"]');
  await page.locator('[id="arg-test_slow.steps"]').fill("40");
  await page.locator('[id="arg-test_slow.ms"]').fill("150");
  await page.getByRole("button", { name: "Call tool" }).click();
  await page
    .locator(".detail-pane .progress-text")
    .filter({ hasText: /^1[0-9] \/ 40/ })
    .waitFor();
  await shot("tools-progress");
  await page.getByRole("button", { name: "Cancel", exact: true }).click();

  await show("tools");
  await page.click('.list-pane [data-tool="test_elicitation_sep1034_defaults"]');
  await page.getByRole("button", { name: "Call tool" }).click();
  await page.locator("dialog.ask[open]").waitFor();
  await shot("elicitation");
  await page.locator("dialog.ask").getByRole("button", { name: "Accept" }).click();

  await show("resources");
  await page.click('.list-pane [data-template="test://template/{id}/data"]');
  await page.locator('[id="tv-id"]').fill("4");
  await page.locator('[id="tv-id-suggestions"] button').first().waitFor();
  await shot("resources");

  await show("prompts");
  await page.click('.list-pane [data-prompt="test_prompt_with_arguments"]');
  await page.locator('[id="pa-arg1"]').fill("pa");
  await page.locator('[id="pa-arg1-suggestions"]').getByRole("button", { name: "party" }).click();
  await page.locator('[id="pa-arg2"]').fill("pi");
  await page.locator('[id="pa-arg2-suggestions"]').getByRole("button", { name: "pizza" }).click();
  await page.getByRole("button", { name: "Get prompt" }).click();
  await page.locator(".prompt-result .message").waitFor();
  await shot("prompts");

  await show("apps");
  await page.click('.list-pane [data-tool="test_app"]');
  await page.locator('[id="app-test_app.name"]').fill("Ada");
  await page.getByRole("button", { name: "Call and render" }).click();
  const frame = page.frameLocator('iframe[title="App view of test_app"]');
  await frame.locator("#greeting").filter({ hasText: "Hello, Ada!" }).waitFor();
  await frame.locator("#increment").click();
  await frame.locator("#count").filter({ hasText: "1" }).waitFor();
  await shot("apps");

  await show("tools");
  await page.click('.list-pane [data-tool="slow_compute"]');
  await page.locator('[id="arg-slow_compute.seconds"]').fill("1");
  await page.getByText("Run as a task").click();
  const before = await page.locator(".detail-pane .outcome").count();
  await page.getByRole("button", { name: "Call tool" }).click();
  await page.locator(".detail-pane .outcome").nth(before).waitFor();
  await show("tasks");
  await page.locator("table.grid tr[data-task]").first().waitFor();
  await shot("tasks");

  await show("skills");
  await page.locator(".list-pane .item").first().click();
  await page.locator(".detail-pane .markdown").waitFor();
  await shot("skills");

  await show("roots");
  await page.getByRole("button", { name: "Add a root" }).click();
  await page.getByLabel("Root 2 URI").fill("file:///home/ada/notes");
  await page.getByLabel("Root 2 name").fill("notes");
  await page.getByRole("button", { name: "Offer these roots" }).click();
  await shot("roots");

  await callTool("test_tool_with_logging");
  await show("logs");
  await page.locator(".log-pane .log").nth(2).waitFor();
  await shot("logs");

  await show("protocol");
  await page.locator('table.protocol tr.msg[data-method="tools/call"][data-kind="response"]').first().click();
  await shot("protocol");

  await show("network");
  await shot("network");

  await page.getByRole("button", { name: /Switch to the dark theme/ }).click();
  await callTool("test_multiple_content_types");
  await shot("tools-dark");
  await show("protocol");
  await shot("protocol-dark");

  // The server goes away: the next ping says so, in the header and in every view.
  await page.getByRole("button", { name: /Switch to the light theme/ }).click();
  children[0].kill("SIGKILL");
  await page.getByTestId("connection-lost").waitFor();
  await show("server");
  await shot("disconnected");

  // A URL at the wrong path, from the connection panel: the doctor's steps in the failure banner.
  const other = await mcpkit(["serve", "everything", "--port", "0"], /serving MCP on (http:\/\/\S+\/mcp)/);
  const panel = page.getByRole("form", { name: "Connection" });
  await panel.getByLabel("URL").fill(new URL("/", other).href);
  await panel.getByRole("button", { name: "Connect", exact: true }).click();
  await page.getByTestId("diagnosis-verdict").filter({ hasText: "a client cannot use" }).waitFor();
  await shot("diagnosis");
} finally {
  await context?.close();
  for (const child of children) child.kill();
  rmSync(profile, { recursive: true, force: true });
}
