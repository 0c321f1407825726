import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { MCPKIT_SERVER } from "../cli-call/helpers.js";
import { browserForTests, connected, inspectInBrowser } from "./browser.js";
import {
  answerElicitation,
  answerSampling,
  answerUrlElicitation,
  countMessages,
  editRoots,
  fillAndSubmitToolForm,
  followListChanges,
  getPromptWithCompletion,
  loadASkill,
  logsAtALevel,
  progressThenCancel,
  readResourceAndReceiveUpdate,
  renderApp,
  roundsGrouped,
  runATask,
  see,
  show,
} from "./scenarios.js";

// `mcpkit inspect -- mcpkit serve everything --stdio`, in a real browser: the legacy era
// first (--protocol legacy), then the page reconnects in the modern era (2026-07-28).

const browser = browserForTests();
let page: Page;

beforeAll(async () => {
  ({ page } = await inspectInBrowser(browser, ["--protocol", "legacy", "--", ...MCPKIT_SERVER]));
}, 30_000);

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
    it("follows the server's list changes without a refresh", () => followListChanges(page));
    it("renders an MCP App and carries its tool call", () => renderApp(page));
    it("counts the messages of a call in the protocol view", () => countMessages(page));
    it("answers a URL elicitation in the page", () => answerUrlElicitation(page));
    it("offers the roots edited in the page", () => editRoots(page, `file:///home/ada/${era}`));
    it("asks for a log level and shows the server's log messages", () => logsAtALevel(page));
    it("runs a tool as a task and follows it in the tasks view", () => runATask(page));
    it("loads a skill", () => loadASkill(page));
    it("groups a call that asks for input into one exchange", () => roundsGrouped(page, era));
  });
}

describe("the inspector's page", () => {
  it("is usable with the keyboard: a view by Alt+digit, a tool by Tab and Enter, a call by Ctrl+Enter", async () => {
    await page.keyboard.press("Alt+2");
    await page.locator('nav [data-view="tools"][aria-current="page"]').waitFor();
    await page.getByLabel("Filter tools").focus();
    await page.keyboard.type("Add two");
    // The filtered list first: Tab goes to what is shown.
    await page.locator('.list-pane .items li:first-child [data-tool="add"]').waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.dataset.tool")).toBe("add");
    await page.keyboard.press("Enter");
    for (let i = 0; i < 10 && (await page.evaluate("document.activeElement.id")) !== "arg-add.a"; i++)
      await page.keyboard.press("Tab");
    await page.keyboard.type("4");
    await page.keyboard.press("Tab");
    await page.keyboard.type("5");
    await page.keyboard.press("Control+Enter");
    await see(page.locator('.detail-pane .outcome[data-latest="true"]'), '"sum": 9');
  });

  it("switches between the light and dark themes, and keeps the choice", async () => {
    const theme = () => page.evaluate("document.documentElement.dataset.theme");
    const before = await theme();
    const other = before === "dark" ? "light" : "dark";
    await page.getByRole("button", { name: `Switch to the ${other} theme` }).click();
    expect(await theme()).toBe(other);
    await page.reload();
    await connected(page);
    expect(await theme()).toBe(other);
  });
});
