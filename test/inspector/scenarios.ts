import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/**
 * What a person does in the inspector, step by step, against `mcpkit serve everything`.
 * The same steps run over stdio and HTTP, in each era: every one checks what the page
 * shows, which is what the server answered.
 */

/** Waits until the locator shows `text` (locators wait for the page; nothing waits for a fixed time). */
export async function see(locator: Locator, text: string | RegExp): Promise<void> {
  await locator.filter({ hasText: text }).first().waitFor();
}

export const byId = (page: Page, id: string) => page.locator(`[id="${id}"]`);

export async function show(page: Page, view: string): Promise<void> {
  await page.click(`nav [data-view="${view}"]`);
  await page.locator(`nav [data-view="${view}"][aria-current="page"]`).waitFor();
}

export async function chooseTool(page: Page, name: string): Promise<void> {
  await show(page, "tools");
  await page.click(`.list-pane [data-tool="${name}"]`);
  await page.locator(`.list-pane [data-tool="${name}"][aria-current="true"]`).waitFor();
}

/** The newest result of the tool shown, once it came (a result or an error). */
async function latestOutcome(page: Page, before: number): Promise<Locator> {
  await page.locator(".detail-pane .outcome").nth(before).waitFor();
  return page.locator('.detail-pane .outcome[data-latest="true"]');
}

const outcomes = (page: Page) => page.locator(".detail-pane .outcome").count();

/** Fills the form generated from the tool's inputSchema and calls it; gives the result shown. */
export async function callTool(page: Page, name: string, fields: Record<string, string>): Promise<Locator> {
  await chooseTool(page, name);
  for (const [field, value] of Object.entries(fields)) await byId(page, `arg-${name}.${field}`).fill(value);
  const before = await outcomes(page);
  await page.getByRole("button", { name: "Call tool" }).click();
  return latestOutcome(page, before);
}

export async function fillAndSubmitToolForm(page: Page): Promise<void> {
  const result = await callTool(page, "add", { a: "2", b: "3" });
  await see(result, '"sum": 5');
  // add declares an outputSchema: the inspector checks the result against it.
  await see(result, "matches its outputSchema");
}

/** test_slow reports progress each step: the bar moves, then Cancel stops the call on the server. */
export async function progressThenCancel(page: Page): Promise<void> {
  await chooseTool(page, "test_slow");
  await byId(page, "arg-test_slow.steps").fill("100");
  await byId(page, "arg-test_slow.ms").fill("150");
  const before = await outcomes(page);
  await page.getByRole("button", { name: "Call tool" }).click();
  const text = page.locator(".detail-pane .progress-text");
  await see(text, /^[1-9]\d* \/ 100$/);
  const bar = page.locator('.detail-pane progress[aria-label="Progress"]');
  expect(Number(await bar.getAttribute("max"))).toBe(100);
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  const result = await latestOutcome(page, before);
  await see(result, "Cancelled in the inspector");
  expect(await page.getByRole("button", { name: "Call tool" }).isEnabled()).toBe(true);
}

/** test_elicitation asks for a username and an email: the dialog's form is generated from the requested schema. */
export async function answerElicitation(page: Page): Promise<void> {
  await chooseTool(page, "test_elicitation");
  await byId(page, "arg-test_elicitation.message").fill("Who is calling?");
  const before = await outcomes(page);
  await page.getByRole("button", { name: "Call tool" }).click();
  const dialog = page.locator("dialog.ask[open]");
  await see(dialog, "Who is calling?");
  await dialog.locator('[id$=".username"]').fill("ada");
  await dialog.locator('[id$=".email"]').fill("ada@example.com");
  await dialog.getByRole("button", { name: "Accept" }).click();
  const result = await latestOutcome(page, before);
  await see(result, 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
  // The dialog closes when the page hears the question was answered, which may come just
  // after the call's result.
  await page.locator("dialog.ask[open]").waitFor({ state: "detached" });
}

/** test_sampling asks the client's model: the person writes the reply. */
export async function answerSampling(page: Page): Promise<void> {
  await chooseTool(page, "test_sampling");
  await byId(page, "arg-test_sampling.prompt").fill("Name a colour");
  const before = await outcomes(page);
  await page.getByRole("button", { name: "Call tool" }).click();
  const dialog = page.locator("dialog.ask[open]");
  await see(dialog, "Name a colour");
  await dialog.getByLabel("Reply").fill("teal");
  await dialog.getByRole("button", { name: "Send reply" }).click();
  await see(await latestOutcome(page, before), "LLM response: teal");
}

/**
 * Reads test://watched-resource, subscribes, and changes it with a tool: the server's
 * notifications/resources/updated reaches the page, which reads it again.
 */
export async function readResourceAndReceiveUpdate(page: Page, text: string): Promise<void> {
  await show(page, "resources");
  await page.click('.list-pane [data-uri="test://watched-resource"]');
  const detail = page.locator(".detail-pane .resource-detail");
  await see(detail.locator("h3"), "watched-resource");
  await detail.getByRole("button", { name: "Subscribe and watch" }).click();
  await detail.getByRole("button", { name: "Unsubscribe" }).waitFor();
  const pill = page.getByTestId("updates");
  const before = (await pill.count()) ? Number(/updated (\d+)×/.exec((await pill.textContent()) ?? "")?.[1]) : 0;
  await see(await callTool(page, "test_update_watched_resource", { text }), "updated");
  await show(page, "resources");
  await see(pill, `updated ${before + 1}×`);
  await see(page.locator(".detail-pane .resource-detail .block"), text);
  await page.locator(".detail-pane .resource-detail").getByRole("button", { name: "Unsubscribe" }).click();
}

/**
 * test_toggle_tool removes test_optional_tool, then brings it back: the server's
 * notifications/tools/list_changed (2026-07-28: on the inspector's subscriptions/listen
 * stream) reaches the page, which lists the tools again by itself.
 */
export async function followListChanges(page: Page): Promise<void> {
  const optional = page.locator('.list-pane [data-tool="test_optional_tool"]');
  await chooseTool(page, "test_toggle_tool");
  await optional.waitFor();
  await see(await callTool(page, "test_toggle_tool", {}), "test_optional_tool is now disabled");
  await optional.waitFor({ state: "detached" });
  await see(await callTool(page, "test_toggle_tool", {}), "test_optional_tool is now enabled");
  await optional.waitFor();
}

/** test_prompt_with_arguments completes both arguments (completion/complete) as they are typed. */
export async function getPromptWithCompletion(page: Page): Promise<void> {
  await show(page, "prompts");
  await page.click('.list-pane [data-prompt="test_prompt_with_arguments"]');
  await byId(page, "pa-arg1").fill("pa");
  const first = page.locator('[id="pa-arg1-suggestions"]');
  await see(first, "party");
  expect(await first.locator("button").allTextContents()).toEqual(["paris", "park", "party", "pasta", "patio"]);
  await first.getByRole("button", { name: "party" }).click();
  expect(await byId(page, "pa-arg1").inputValue()).toBe("party");
  await byId(page, "pa-arg2").fill("pi");
  await page.locator('[id="pa-arg2-suggestions"]').getByRole("button", { name: "pizza" }).click();
  await page.getByRole("button", { name: "Get prompt" }).click();
  await see(page.locator(".prompt-result .message"), "Prompt with arguments: arg1='party', arg2='pizza'");
}

/**
 * test_app names ui://everything/greeting: the view renders in a sandboxed frame, gets the
 * tool's result from the inspector (its host), and calls an app-only tool through it.
 */
export async function renderApp(page: Page): Promise<void> {
  await show(page, "apps");
  await page.click('.list-pane [data-tool="test_app"]');
  await byId(page, "app-test_app.name").fill("Ada");
  await page.getByRole("button", { name: "Call and render" }).click();
  const frame = page.frameLocator('iframe[title="App view of test_app"]');
  await see(frame.locator("#greeting"), "Hello, Ada!");
  await see(frame.locator("#input"), '{"name":"Ada"}');
  await see(frame.locator("#status"), "initialized by mcpkit-inspector");
  expect(await page.locator("iframe.app-frame").getAttribute("sandbox")).toBe("allow-scripts allow-forms");
  await frame.locator("#increment").click();
  await see(frame.locator("#count"), "1");
  const log = page.locator(".app-log");
  for (const method of ["ui/initialize", "ui/notifications/initialized", "ui/notifications/tool-result", "tools/call"])
    await see(log, method);
  await see(log, "notifications/message");
}

/** The number of messages the protocol view shows for a filter. */
export async function messageCount(page: Page, filter: string): Promise<number> {
  await show(page, "protocol");
  await page.getByLabel("Filter messages").fill(filter);
  return Number(await page.getByTestId("message-count").textContent());
}

/** One tools/call adds exactly its request and its answer to the protocol view, paired by id. */
export async function countMessages(page: Page): Promise<void> {
  const before = await messageCount(page, "tools/call");
  await see(await callTool(page, "echo", { text: "counted" }), "counted");
  const after = await messageCount(page, "tools/call");
  expect(after).toBe(before + 2);
  const rows = page.locator("table.protocol tr.msg");
  expect(await rows.count()).toBe(after);
  const [request, response] = [rows.nth(after - 2), rows.nth(after - 1)];
  expect(await request.getAttribute("data-kind")).toBe("request");
  expect(await response.getAttribute("data-kind")).toBe("response");
  expect(await response.locator("td").nth(5).textContent()).toBe(await request.locator("td").nth(5).textContent());
  await response.click();
  await see(page.locator("table.protocol tr.detail"), '"text": "counted"');
  await page.getByLabel("Filter messages").fill("");
}

/**
 * A server that asks for input mid-call: one exchange in the protocol view. Legacy: the
 * server's elicitation/create is nested in the tools/call; modern (2026-07-28): an
 * input_required result, then the retried request as round 2.
 */
export async function roundsGrouped(page: Page, era: "legacy" | "modern"): Promise<void> {
  await chooseTool(page, "test_input_required_result_elicitation");
  const before = await outcomes(page);
  await page.getByRole("button", { name: "Call tool" }).click();
  const dialog = page.locator("dialog.ask[open]");
  await see(dialog, "What is your name?");
  await dialog.locator('[id$=".name"]').fill("Grace");
  await dialog.getByRole("button", { name: "Accept" }).click();
  await see(await latestOutcome(page, before), "Hello, Grace!");
  await show(page, "protocol");
  const call = page.locator('table.protocol tr.msg[data-method="tools/call"][data-kind="request"]').last();
  await call.locator(".group-chip").click();
  const rows = page.locator("table.protocol tr.msg");
  const shown = await rows.evaluateAll((trs) =>
    trs.map((tr) => `${tr.getAttribute("data-kind")} ${tr.getAttribute("data-method")}`),
  );
  if (era === "modern") {
    expect(shown).toEqual(["request tools/call", "response tools/call", "request tools/call", "response tools/call"]);
    await see(rows.nth(2).locator(".group-chip"), "round 2");
  } else {
    expect(shown).toEqual([
      "request tools/call",
      "request elicitation/create",
      "response elicitation/create",
      "response tools/call",
    ]);
  }
  await page.getByRole("button", { name: /Exchange #\d+ ✕/ }).click();
}

/** test_url_elicitation sends the person to a page (URL mode): the dialog shows the address, the person says when done. */
export async function answerUrlElicitation(page: Page): Promise<void> {
  await chooseTool(page, "test_url_elicitation");
  await byId(page, "arg-test_url_elicitation.url").fill("https://example.com/finish-signup");
  const before = await outcomes(page);
  await page.getByRole("button", { name: "Call tool" }).click();
  const dialog = page.locator("dialog.ask[open]");
  await see(dialog, "Please finish in your browser");
  expect(await dialog.getByRole("link", { name: "Open the page" }).getAttribute("href")).toBe(
    "https://example.com/finish-signup",
  );
  await dialog.getByRole("button", { name: "Done" }).click();
  await see(await latestOutcome(page, before), "URL elicitation: action=accept");
}

/** Roots edited in the page are what the server gets when it asks (roots/list, or an input request). */
export async function editRoots(page: Page, uri: string): Promise<void> {
  await show(page, "roots");
  await page.getByRole("button", { name: "Add a root" }).click();
  const rows = page.locator(".root-row");
  const n = await rows.count();
  await page.getByLabel(`Root ${n} URI`).fill(uri);
  await page.getByLabel(`Root ${n} name`).fill("project");
  await page.getByRole("button", { name: "Offer these roots" }).click();
  await see(page.locator("section.view"), "Offered to the server.");
  await see(await callTool(page, "test_list_roots", {}), uri);
}

/** The log level asked for in the page, and the server's log messages in the log pane. */
export async function logsAtALevel(page: Page): Promise<void> {
  await show(page, "logs");
  await page.locator("section.view select").first().selectOption("debug");
  await see(page.locator("section.view"), "asked for debug and up");
  const shown = page.locator(".log-pane .log");
  const before = await shown.filter({ hasText: "Tool execution completed" }).count();
  await callTool(page, "test_tool_with_logging", {});
  await show(page, "logs");
  await shown.filter({ hasText: "Tool execution completed" }).nth(before).waitFor();
  await see(shown.filter({ hasText: "Tool processing data" }).last(), "info");
}

/** slow_compute run as a task: the Tasks view follows it to completed and fetches its result. */
export async function runATask(page: Page): Promise<void> {
  await chooseTool(page, "slow_compute");
  await byId(page, "arg-slow_compute.seconds").fill("0.3");
  await byId(page, "arg-slow_compute.label").fill("the answer");
  await page.getByText("Run as a task").click();
  const before = await outcomes(page);
  await page.getByRole("button", { name: "Call tool" }).click();
  const result = await latestOutcome(page, before);
  await see(result, "Computed the answer in 0.3s");
  const taskId = /task ([\w-]+)/.exec((await result.locator(".outcome-head").textContent()) ?? "")?.[1];
  expect(taskId).toBeTruthy();
  await page.getByText("Run as a task").click();
  await show(page, "tasks");
  const row = page.locator(`tr[data-task="${taskId}"]`);
  await see(row, "completed");
  await row.getByRole("button", { name: "Result" }).click();
  await see(page.locator("table.grid .result"), "Computed the answer in 0.3s");
}

/** The pdf-processing skill: its SKILL.md, loaded and verified against its digest. */
export async function loadASkill(page: Page): Promise<void> {
  await show(page, "skills");
  await page.locator(".list-pane .item", { hasText: "pdf-processing" }).click();
  await see(page.locator(".detail-pane .markdown h3"), "PDF processing");
  await see(page.locator(".detail-pane .markdown"), "the forms guide");
}
