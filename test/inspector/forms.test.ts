import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { MCPKIT_SERVER } from "../cli-call/helpers.js";
import { browserForTests, connected, inspectInBrowser } from "./browser.js";
import { byId, chooseTool, messageCount, see, show } from "./scenarios.js";

// What a person types into the inspector's generated forms and what comes back, against
// `mcpkit inspect -- mcpkit serve everything --stdio`: each kind of field reaches the server
// with its JSON type, a form the schema forbids is refused before anything is sent, the
// raw-JSON mode, results that break their outputSchema, a tool's error apart from a
// JSON-RPC error, a template's completion, and a server process that dies.

const browser = browserForTests();
let page: Page;

beforeAll(async () => {
  ({ page } = await inspectInBrowser(browser, ["--", ...MCPKIT_SERVER]));
}, 30_000);

const field = (name: string) => byId(page, `arg-test_form_fields.${name}`);
const outcomes = () => page.locator(".detail-pane .outcome").count();
const call = () => page.getByRole("button", { name: "Call tool" }).click();

/** Clicks Call tool and gives the outcome that came (a result or an error). */
async function callAndWait(): Promise<Locator> {
  const before = await outcomes();
  await call();
  await page.locator(".detail-pane .outcome").nth(before).waitFor();
  return page.locator('.detail-pane .outcome[data-latest="true"]');
}

/** The structuredContent of a result, as JSON. */
async function structured(outcome: Locator): Promise<unknown> {
  return JSON.parse((await outcome.locator('.block[data-type="structured"] pre').textContent()) ?? "");
}

/** A click that the form refuses, saying why: nothing reaches the server (the protocol view counts the calls). */
async function refused(why: (string | RegExp)[], where = ".detail-pane .field-error"): Promise<void> {
  const before = await messageCount(page, "tools/call");
  await show(page, "tools");
  await page.locator(".detail-pane .tool-detail").waitFor();
  const shown = await outcomes();
  await call();
  for (const message of why) await see(page.locator(where), message);
  expect(await outcomes()).toBe(shown);
  expect(await messageCount(page, "tools/call")).toBe(before);
  await show(page, "tools");
}

describe("a tool form generated from its inputSchema", () => {
  it("sends each kind of field with its JSON type: integers, numbers, booleans, enums, formats, null, arrays, nested objects", async () => {
    await chooseTool(page, "test_form_fields");
    // Defaults are filled in: a boolean, a titled enum, an integer.
    expect(await field("subscribed").isChecked()).toBe(true);
    expect(await field("size").locator("option:checked").textContent()).toBe("Medium");
    expect(await field("retries").inputValue()).toBe("3");

    await field("name").fill("Ada");
    await field("age").fill("36");
    await field("ratio").fill("0.25");
    await field("subscribed").uncheck();
    await field("color").selectOption({ label: "green" });
    await field("size").selectOption({ label: "Large" });
    await field("birthday").fill("1815-12-10");
    await field("alarm").fill("06:30:00Z");
    await field("startsAt").fill("2026-01-31T14:30:00+01:00");
    await field("email").fill("ada@example.com");
    await field("homepage").fill("https://example.com/ada");
    await field("code").fill("ADA-1815");
    await page.getByLabel("nickname is null").check();
    const tags = field("tags");
    await tags.getByRole("button", { name: "Add item" }).click();
    await tags.getByRole("button", { name: "Add item" }).click();
    await field("tags.0").fill("maths");
    await field("tags.1").fill("engines");
    await field("address.street").fill("12 St James's Square");
    await field("address.city").fill("London");
    await field("contacts").getByRole("button", { name: "Add item" }).click();
    await field("contacts.0.name").fill("Charles");

    // The tool returns the arguments as the server got them (after its own schema check).
    expect(await structured(await callAndWait())).toEqual({
      name: "Ada",
      age: 36,
      ratio: 0.25,
      subscribed: false,
      color: "green",
      size: "l",
      birthday: "1815-12-10",
      alarm: "06:30:00Z",
      startsAt: "2026-01-31T14:30:00+01:00",
      email: "ada@example.com",
      homepage: "https://example.com/ada",
      code: "ADA-1815",
      nickname: null,
      tags: ["maths", "engines"],
      address: { street: "12 St James's Square", city: "London" },
      contacts: [{ name: "Charles" }],
      retries: 3,
    });
  });

  it("refuses, field by field, what the schema forbids, and sends nothing until it is right", async () => {
    await chooseTool(page, "test_form_fields");
    await field("age").fill("2.5"); // an integer
    await field("ratio").fill("0"); // exclusiveMinimum 0
    await field("alarm").fill("06:30"); // RFC 3339 wants seconds and an offset
    await field("email").fill("not an address");
    // A pattern is shown, not run (the server's regular expression could hang the tab): the server checks it.
    await refused([/valid value|integer/i, "Must be greater than 0", "Write a time as 14:30:00Z"]);

    await field("age").fill("36");
    await field("ratio").fill("1");
    await field("alarm").fill("06:30:00Z");
    await field("code").fill("ADA-1815");
    await field("email").fill("ada@example.com");
    // An optional object's required fields bind only once it is given: clearing the street leaves it half given.
    await field("address.street").fill("");
    await refused([/fill/i]);
    await field("address.city").fill("");
    expect(await page.locator(".detail-pane .field-error").count()).toBe(0);
    const result = await callAndWait();
    expect(await structured(result)).toMatchObject({ age: 36, ratio: 1, code: "ADA-1815" });
    expect(await structured(result)).not.toHaveProperty("address");
  });

  it("switches to raw JSON, sends what is typed there, and refuses JSON that is not an object of arguments", async () => {
    await chooseTool(page, "echo");
    await byId(page, "arg-echo.text").fill("typed in the form");
    await page.locator(".detail-pane .mode").getByRole("button", { name: "JSON" }).click();
    const raw = page.getByLabel("Arguments as JSON");
    expect(JSON.parse(await raw.inputValue())).toEqual({ text: "typed in the form" });
    await raw.fill('{ "text": "typed as JSON" }');
    await see((await callAndWait()).locator(".block"), "typed as JSON");

    await raw.fill('{ "text": "unfinished');
    await see(page.getByTestId("json-problem"), "Not valid JSON");
    await refused([/Not valid JSON/], ".detail-pane .schema-form .error");
    await raw.fill('["text"]');
    await see(page.getByTestId("json-problem"), "The arguments must be a JSON object");
    await refused(["The arguments must be a JSON object"], ".detail-pane .schema-form .error");
    // The form cannot show JSON that does not parse: it stays in JSON until the JSON is right.
    await page.locator(".detail-pane .mode").getByRole("button", { name: "Form" }).click();
    expect(await raw.isVisible()).toBe(true);
    await raw.fill('{ "text": "back to the form" }');
    await page.locator(".detail-pane .mode").getByRole("button", { name: "Form" }).click();
    expect(await byId(page, "arg-echo.text").inputValue()).toBe("back to the form");
  });
});

describe("results", () => {
  it("shows a result whose structuredContent breaks the tool's outputSchema as such, with what is wrong", async () => {
    await chooseTool(page, "test_output_schema_mismatch");
    const result = await callAndWait();
    await see(result.locator(".pill.bad"), "breaks its outputSchema");
    await see(result.locator(".result > .error"), /count/);
    expect(await structured(result)).toEqual({ count: "three" });
  });

  it("tells a tool's own error (isError) from a JSON-RPC error", async () => {
    await chooseTool(page, "test_error_handling");
    const toolError = await callAndWait();
    await see(toolError.locator(".result.is-error .pill.bad"), "Tool error");
    await see(toolError, "This tool intentionally returns an error for testing");
    expect(await toolError.locator(".protocol-error").count()).toBe(0);

    await chooseTool(page, "protocol_error_job");
    const rpcError = await callAndWait();
    await see(rpcError.locator(".protocol-error .pill.bad"), "JSON-RPC error -32603 · Internal error");
    await see(rpcError.locator(".protocol-error"), "The job's worker crashed");
    expect(await rpcError.locator(".is-error").count()).toBe(0);
  });
});

describe("resource templates", () => {
  it("completes a template's variable from the server and reads the resource it names", async () => {
    await show(page, "resources");
    await page.click('.list-pane [data-template="test://template/{id}/data"]');
    await byId(page, "tv-id").fill("1");
    const suggestions = page.locator('[id="tv-id-suggestions"]');
    await see(suggestions, "12");
    // 150 ids: the first that start with "1", and how many there are in all.
    expect((await suggestions.locator("button").allTextContents()).slice(0, 3)).toEqual(["1", "10", "11"]);
    await byId(page, "tv-id").fill("14");
    await see(suggestions, "149");
    await suggestions.getByRole("button", { name: "142" }).click();
    expect(await byId(page, "tv-id").inputValue()).toBe("142");
    await see(page.locator(".detail-pane form .mono"), "test://template/142/data");
    await page.getByRole("button", { name: "Read", exact: true }).click();
    await see(page.locator(".detail-pane .resource-detail .block"), '"data": "Data for ID: 142"');
  });
});

describe("a server that goes away", () => {
  it("says so in every view, and the Reconnect button starts it anew", async () => {
    await show(page, "server");
    const pid = Number(await page.getByTestId("pid").textContent());
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    const lost = page.getByTestId("connection-lost");
    await see(lost, "Disconnected: Server process was killed by SIGKILL");
    // Beside the state in the header too, as for an HTTP server that stopped answering.
    await see(page.getByTestId("status"), "Disconnected");
    await see(page.getByTestId("status-reason"), "Server process was killed by SIGKILL");
    await show(page, "tools");
    await see(lost, "Disconnected: Server process was killed by SIGKILL");
    await lost.getByRole("button", { name: "Reconnect" }).click();
    await connected(page);
    expect(await lost.count()).toBe(0);
    await show(page, "server");
    expect(Number(await page.getByTestId("pid").textContent())).not.toBe(pid);
    await chooseTool(page, "echo");
    await byId(page, "arg-echo.text").fill("after the restart");
    await see(await callAndWait(), "after the restart");
  });
});
