import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { MCPKIT_SERVER, mcpkit, serveHttp, tempDir } from "../cli-call/helpers.js";
import { browserForTests, inspectInBrowser } from "./browser.js";
import { callTool, see, show } from "./scenarios.js";

// The inspector offers what a person did as files of mcpkit's testing tools, as browser
// downloads: the requests made as a test file that `mcpkit test` runs against the same
// server, and the connection as a recording that `mcpkit replay` plays against it. No
// secret given to the inspector is in either.

const browser = browserForTests();
/** HTTP servers a test started: stopped after all, whatever the tests did. */
const started: { server: { child: { kill(): boolean } } }[] = [];

afterAll(async () => {
  for (const { server } of started) server.child.kill();
});

/** Clicks a save button of the Protocol view; gives the downloaded file's name and text. */
async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  await show(page, "protocol");
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, "utf8") };
}

/** What a person does: a structured result, a text result with the secret in it, a tool error, a resource. */
async function clickThrough(page: Page, secret: string): Promise<void> {
  await see(await callTool(page, "add", { a: "2", b: "3" }), '"sum": 5');
  await see(await callTool(page, "echo", { text: secret }), secret);
  await see(await callTool(page, "test_error_handling", {}), "Tool error");
}

describe("the session as files for mcpkit test and mcpkit replay", () => {
  it("over stdio: a test file that passes and a recording that replays, without the -e value", async () => {
    const secret = "s3cr3t-stdio-value-1234";
    const { page } = await inspectInBrowser(browser, ["-e", `API_TOKEN=${secret}`, "--", ...MCPKIT_SERVER]);
    await clickThrough(page, secret);
    const dir = tempDir();

    const tests = await download(page, "Save as test file");
    expect(tests.name).toBe("mcpkit-everything.mcptest.yaml");
    expect(tests.text).not.toContain(secret);
    expect(tests.text).toContain("# Left out: the values of the variables API_TOKEN");
    expect(tests.text).toContain("call: add");
    await see(page.getByTestId("save-notes"), "3 test(s)");
    const testFile = join(dir, tests.name);
    writeFileSync(testFile, tests.text);
    const ran = await mcpkit(["test", testFile], 60_000);
    expect(ran.stdout.trim().split("\n").at(-1), ran.stdout + ran.stderr).toBe("3 passed, 0 failed");
    expect(ran.code).toBe(0);

    const recording = await download(page, "Save as recording");
    expect(recording.name).toMatch(/^mcpkit-everything-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl$/);
    expect(recording.text).not.toContain(secret);
    expect(recording.text).toContain('"method":"tools/call"');
    const recordingFile = join(dir, recording.name);
    writeFileSync(recordingFile, recording.text);
    const replayed = await mcpkit(["replay", recordingFile, "--", ...MCPKIT_SERVER], 60_000);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    await page.close();
  }, 120_000);

  it("over HTTP: the same, without the -H value", async () => {
    const served = await serveHttp();
    started.push(served);
    const secret = "Bearer-like-header-value-5678";
    const { page } = await inspectInBrowser(browser, ["-H", `X-Api-Key: ${secret}`, served.url]);
    await clickThrough(page, secret);
    const dir = tempDir();

    const tests = await download(page, "Save as test file");
    expect(tests.text).not.toContain(secret);
    expect(tests.text).toContain("# Left out: the values of the headers X-Api-Key");
    expect(tests.text).toContain(`url: ${served.url}`);
    const testFile = join(dir, tests.name);
    writeFileSync(testFile, tests.text);
    const ran = await mcpkit(["test", testFile], 60_000);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);

    const recording = await download(page, "Save as recording");
    expect(recording.text).not.toContain(secret);
    const recordingFile = join(dir, recording.name);
    writeFileSync(recordingFile, recording.text);
    const replayed = await mcpkit(["replay", recordingFile, served.url], 60_000);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    await page.close();
  }, 120_000);
});
