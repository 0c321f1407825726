import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { MCPKIT_SERVER, requireBuild, stopAll } from "../cli-call/helpers.js";
import { type Browser, connected, openBrowser, openInspector, startInspect } from "./browser.js";
import {
  answerElicitation,
  answerSampling,
  countMessages,
  fillAndSubmitToolForm,
  getPromptWithCompletion,
  progressThenCancel,
  readResourceAndReceiveUpdate,
  renderApp,
  roundsGrouped,
  see,
  show,
} from "./scenarios.js";

// `mcpkit inspect -- mcpkit serve everything --stdio`, in a real browser: the legacy era
// first (--protocol legacy), then the page reconnects in the modern era (2026-07-28).

let browser: Browser;
let page: Page;

beforeAll(async () => {
  requireBuild();
  browser = await openBrowser();
  const { url } = await startInspect(["--protocol", "legacy", "--", ...MCPKIT_SERVER]);
  page = await openInspector(browser.context, url);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await stopAll();
});

for (const era of ["legacy", "modern"] as const) {
  describe(`the inspector over stdio, ${era} era`, () => {
    if (era === "modern")
      it("reconnects in the modern era from the page, starting the server anew", async () => {
        await show(page, "server");
        await page.getByLabel("Protocol era").selectOption("modern");
        await page.getByRole("button", { name: "Reconnect" }).click();
        await see(page.getByTestId("revision"), "2026-07-28");
        await connected(page);
      });
    else
      it("connects in the era asked for on the command line", async () => {
        await see(page.getByTestId("revision"), "2025-11-25");
      });

    it("fills and submits a tool form generated from its inputSchema", () => fillAndSubmitToolForm(page));
    it("shows a call's progress and cancels it", () => progressThenCancel(page));
    it("answers an elicitation form in the page", () => answerElicitation(page));
    it("answers a sampling request in the page", () => answerSampling(page));
    it("reads a resource and receives its update", () =>
      readResourceAndReceiveUpdate(page, `changed over stdio, ${era}`));
    it("gets a prompt with argument completion", () => getPromptWithCompletion(page));
    it("renders an MCP App and carries its tool call", () => renderApp(page));
    it("counts the messages of a call in the protocol view", () => countMessages(page));
    it("groups a call that asks for input into one exchange", () => roundsGrouped(page, era));
  });
}
