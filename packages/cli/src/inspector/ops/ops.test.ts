import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppViews } from "../app-views.js";
import type { OpName } from "../contract/operations.js";
import { InspectorSession } from "../session.js";
import type { Target } from "../target.js";
import { isOpName, OPS, type OpContext, runOperation } from "./index.js";

// The operation table: each body the page sends is checked field by field before anything
// runs, and refused with a sentence that names what is wrong (the page shows it as it is).

/** A session that has not connected (nothing listens on port 9): enough for what these operations check. */
function context(
  target: Target = { kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} },
  allowSpawn: string[] = [],
) {
  const session = new InspectorSession({
    target,
    protocol: "auto",
    timeoutMs: 2000,
    redirectUri: () => "http://127.0.0.1:1/oauth/callback",
    allowSpawn,
    roots: [],
    pingIntervalMs: 0,
    emit: () => undefined,
  });
  const ctx: OpContext = { session, views: new AppViews(), calls: new Map() };
  return ctx;
}

const refusal = (name: OpName, body: Record<string, unknown>) => {
  try {
    OPS[name].parse(body);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
};

describe("the operation table", () => {
  it("names its operations by their own keys only", () => {
    expect(isOpName("tools/call")).toBe(true);
    for (const name of ["toString", "__proto__", "constructor", "list", "tools/cal"])
      expect(isOpName(name)).toBe(false);
  });

  it("takes no field an operation would ignore", () => {
    expect(refusal("disconnect", { force: true })).toBe('This operation takes no "force"');
    expect(refusal("tools/list", {})).toBeUndefined();
  });

  it.each<[OpName, Record<string, unknown>, string]>([
    ["tools/call", {}, '"name" must be a string'],
    ["tools/call", { name: "x", arguments: [1] }, '"arguments" must be an object'],
    ["tools/call", { name: "x", asTask: "yes" }, '"asTask" must be true or false'],
    ["prompts/get", { name: "p", arguments: { n: 3 } }, '"arguments.n" must be a string'],
    [
      "completion/complete",
      { ref: { type: "ref/tool" }, argument: { name: "a" } },
      '"ref.type" must be ref/prompt or ref/resource',
    ],
    ["completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: {} }, '"name" must be a string'],
    [
      "logging/setLevel",
      { level: "verbose" },
      '"verbose" is not a log level (debug, info, notice, warning, error, critical, alert, emergency)',
    ],
    ["roots", { roots: [{ uri: "relative/path" }] }, 'A root needs a URI (file:///…), not "relative/path"'],
    ["answer", { id: "1", reply: { refuse: "no" } }, `"id" must be the question's number`],
    [
      "answer",
      { id: 1, reply: { result: {} } },
      "\"reply\" needs a result (an elicitation's action, a sampling's model) or refuse",
    ],
    [
      "app/open",
      { uri: "https://example.com/view.html" },
      "An app view is a ui:// resource, not https://example.com/view.html",
    ],
    ["connect", { protocol: "2019-01-01" }, '"2019-01-01" is not auto, legacy, modern or a revision mcpkit speaks'],
    ["connect", { url: "ftp://example.com/mcp" }, "The URL must be http: or https:"],
    [
      "connect",
      { url: "http://user:secret@example.com/mcp" },
      "Give credentials as a header or a bearer token, not in the URL",
    ],
    ["connect", { url: "http://example.com/mcp", command: "node" }, "Give a URL or a command, not both"],
    [
      "connect",
      { url: "http://example.com/mcp", headers: { Host: "evil" } },
      "Host is set by the inspector's client, not by hand",
    ],
    ["connect", { url: "http://example.com/mcp", headers: { "Bad Name": "x" } }, '"Bad Name" is not a header name'],
    [
      "connect",
      { command: "node", env: { NODE_OPTIONS: "--require x" } },
      "The page does not set a command's environment: give variables to mcpkit inspect with -e",
    ],
    ["connect", { command: "node", args: ["a", 2] }, '"args" must be a list of strings'],
  ])("refuses %s %j: %s", (name, body, message) => {
    expect(refusal(name, body)).toBe(message);
  });

  it("gives the request the contract names, with what was left out left out", () => {
    expect(OPS["tools/call"].parse({ name: "add", arguments: { a: 1 } })).toEqual({ name: "add", arguments: { a: 1 } });
    expect(OPS.connect.parse({ url: "HTTP://Example.com/mcp", headers: { "X-Key": " k " } })).toEqual({
      url: "http://example.com/mcp",
      headers: { "X-Key": "k" },
      removeHeaders: [],
    });
    expect(
      OPS["completion/complete"].parse({ ref: { type: "ref/resource", uri: "file:///{p}" }, argument: { name: "p" } }),
    ).toEqual({ ref: { type: "ref/resource", uri: "file:///{p}" }, argument: { name: "p", value: "" } });
  });

  it("cancels a call by the page's id, once", async () => {
    const ctx = context();
    const controller = new AbortController();
    ctx.calls.set("c1", controller);
    expect(await runOperation("cancel", { callId: "c1" }, ctx)).toEqual({ cancelled: true });
    expect(controller.signal.aborted).toBe(true);
    expect(await runOperation("cancel", { callId: "c2" }, ctx)).toEqual({ cancelled: false });
  });

  it("starts no command outside --allow-spawn's list, before anything is started", async () => {
    const ctx = context({ kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} }, ["npx"]);
    await expect(runOperation("connect", { command: "node", args: [] }, ctx)).rejects.toThrow(
      'The page may start npx (mcpkit inspect --allow-spawn), not "node"',
    );
    expect(ctx.session.target.kind).toBe("http");
    expect(ctx.session.status).toBe("disconnected");
  });

  it("runs the doctor on the connection's own target, and refuses a body that names another before anything starts", async () => {
    const marker = join(tmpdir(), `mcpkit-doctor-spawned-${process.pid}`);
    const ctx = context({ kind: "http", url: "http://127.0.0.1:9/mcp", headers: {} }, ["node"]);
    for (const [body, field] of [
      [{ command: "node", args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`] }, "command"],
      [{ url: "http://127.0.0.1:10/mcp" }, "url"],
    ] as const)
      expect(() => runOperation("doctor", body, ctx)).toThrow(`This operation takes no "${field}"`);
    expect(existsSync(marker)).toBe(false);
    expect(ctx.session.doctor.diagnosis).toBeUndefined();

    // Its own target: nothing listens on port 9, which the doctor says, with the fix.
    const diagnosis = await runOperation("doctor", {}, ctx);
    expect(diagnosis).toMatchObject({ running: false, ok: false });
    expect(diagnosis.checks[0]).toMatchObject({ id: "reachable", ok: false, severity: "error" });
    expect(diagnosis.checks[0]?.message).toContain("127.0.0.1:9");
    expect(ctx.session.state().diagnosis).toEqual(diagnosis);
  });

  it("sends a new URL the headers given for its origin, not the command line's", async () => {
    const ctx = context({ kind: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer cli" } });
    const state = await runOperation("connect", { url: "http://127.0.0.1:10/mcp", headers: { "X-Page": "p" } }, ctx);
    expect(ctx.session.target).toEqual({ kind: "http", url: "http://127.0.0.1:10/mcp", headers: { "X-Page": "p" } });
    expect(state.target).toEqual({ kind: "http", url: "http://127.0.0.1:10/mcp", headers: ["X-Page"] });
    await runOperation("connect", { url: "http://127.0.0.1:9/other" }, ctx);
    expect(ctx.session.target).toMatchObject({ headers: { Authorization: "Bearer cli" } });
    await ctx.session.disconnect();
  });

  it("says there is nothing to save before anything was done, rather than saving an empty file", async () => {
    const ctx = context();
    await expect(runOperation("export/test-file", {}, ctx)).rejects.toThrow(
      "No call, read, prompt or completion made yet: make some, then save them as a test file",
    );
    await expect(runOperation("export/recording", {}, ctx)).rejects.toThrow(
      "Nothing to record yet: this connection has sent no message",
    );
  });
});
