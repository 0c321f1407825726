import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  historyFromLog,
  type LoggedMessage,
  recordingFromLog,
  testFileFromHistory,
} from "../../src/testing/convert/from-log.js";
import { REDACTED } from "../../src/testing/record/redact.js";
import { runTests } from "../../src/testing/runner/run-tests.js";
import { loggedClient, testServer } from "./fixture-server.js";

// What a client with a protocol log (the inspector) hands a person: its session as a
// recording, and the requests it made as a test file that runs.

const dir = mkdtempSync(join(tmpdir(), "mcpkit-convert-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function logOf(protocolVersion: "2025-11-25" | "2026-07-28"): Promise<LoggedMessage[]> {
  const { client, log } = await loggedClient(testServer(), protocolVersion, "inspector");
  await client.callTool("add", { a: 2, b: 3 });
  await client.callTool("greet", { name: "Ada" });
  await client.callTool("fail", {});
  await client.callTool("confirm", { what: "x" });
  await client.callTool("nope", {}).catch(() => undefined);
  await client.readResource("info://about");
  await client.getPrompt("welcome", { name: "Bo" });
  await client.complete({ ref: { type: "ref/resource", uri: "note://{id}" }, argument: { name: "id", value: "b" } });
  await client.close();
  return log;
}

describe("a protocol log as a recording", () => {
  it("is JSON lines of { t, from, message }, t from the first message, credentials left out", () => {
    const { text, entries, skipped } = recordingFromLog([
      {
        at: 1000,
        dir: "out",
        message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: { password: "p" } } },
      },
      { at: 1002, dir: "in", message: "{ the start of a huge message", truncated: true },
      { at: 1250, dir: "in", message: { jsonrpc: "2.0", id: 1, result: { content: [] } } },
    ]);
    expect(skipped).toBe(1);
    expect(entries.map((e) => [e.t, e.from])).toEqual([
      [0, "client"],
      [250, "server"],
    ]);
    expect(text.split("\n")[0]).toBe(
      `{"t":0,"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"password":"${REDACTED}"}}}}`,
    );
  });
});

describe.each(["2025-11-25", "2026-07-28"] as const)("a %s history as a test file", (revision) => {
  it("makes each request again and expects what came back then: it passes against the same server", async () => {
    const history = historyFromLog(await logOf(revision));
    expect(history.map((h) => `${h.method} ${String(h.params.name ?? h.params.uri ?? "")}`)).toEqual([
      "tools/call add",
      "tools/call greet",
      "tools/call fail",
      "tools/call confirm",
      "tools/call nope",
      "resources/read info://about",
      "prompts/get welcome",
      "completion/complete ",
    ]);
    const yaml = await testFileFromHistory(history, { server: { command: "node", args: ["server.js"] } });
    expect(yaml).toContain("server:\n  command: node\n");
    expect(yaml).toContain(
      "  - name: call add\n    call: add\n    arguments:\n      a: 2\n      b: 3\n    expect:\n      structuredContent:\n        sum: 5\n",
    );
    const path = join(dir, `${revision}.mcptest.yaml`);
    writeFileSync(path, yaml);
    const passing = await runTests(path, { server: testServer() });
    expect(passing.files[0]?.tests.filter((t) => !t.ok)).toEqual([]);
    // The generated file checks something: a server that adds wrong fails it.
    const failing = await runTests(path, { server: testServer({ sum: () => 0 }) });
    expect(failing.files[0]?.tests.filter((t) => !t.ok).map((t) => t.name)).toEqual(["call add"]);
  });
});
