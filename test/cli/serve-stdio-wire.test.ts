import { existsSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  CLI_BIN,
  isObject,
  type Json,
  type JsonMessage,
  type LineProcess,
  ProcessPool,
  REPO_ROOT,
} from "../../packages/mcpkit/test/stdio/helpers.js";

// `mcpkit serve everything --stdio` as a real process, spoken to in raw newline-delimited
// JSON: what any MCP client (or a careless one) would write to its stdin. The bin runs the
// built CLI (packages/cli/dist): `npx tsc -b packages/mcpkit packages/cli` first.

const pool = new ProcessPool();
const procs: LineProcess[] = [];

beforeAll(() => {
  if (!existsSync(`${REPO_ROOT}packages/cli/dist/main.js`))
    throw new Error("packages/cli/dist is missing: run `npx tsc -b packages/mcpkit packages/cli` first");
});

afterEach(async () => {
  // transports §stdio: the server MUST NOT write anything to stdout that is not an MCP message.
  for (const proc of procs) expect(proc.badLines, "stdout lines that are not JSON").toEqual([]);
  procs.length = 0;
  await pool.cleanup();
});

function serve(): LineProcess {
  const proc = pool.spawn(process.execPath, [CLI_BIN, "serve", "everything", "--stdio"]);
  procs.push(proc);
  return proc;
}

let sentinel = 1000;
/**
 * Writes `raw` then a ping, and returns everything stdout carried in between (the ping's
 * answer excluded). The server answers framing and structural errors synchronously, so they
 * always precede the ping's answer.
 */
async function answersTo(proc: LineProcess, raw: string): Promise<Json[]> {
  const before = proc.values.length;
  const id = `sentinel-${sentinel++}`;
  proc.write(`${raw}\n${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`);
  await proc.response(id);
  const after = proc.values.slice(before);
  expect(after.at(-1)).toEqual({ jsonrpc: "2.0", id, result: {} });
  return after.slice(0, -1);
}

const code = (m: Json | undefined) => (isObject(m) && isObject(m.error) ? m.error.code : undefined);

/**
 * The error about a message whose id could not be read. 2025-11-25 leaves `id` out
 * (JSONRPCErrorResponse.id is optional and never null), and so does a server that has not
 * negotiated yet (it follows its latest revision); earlier revisions say `id: null`.
 */
const unreadable = (errorCode: number, revision: "2025-11-25" | "2025-06-18" | "2025-03-26" = "2025-11-25") =>
  revision === "2025-11-25"
    ? { jsonrpc: "2.0", error: { code: errorCode, message: expect.any(String) } }
    : { jsonrpc: "2.0", id: null, error: { code: errorCode, message: expect.any(String) } };

describe("mcpkit serve everything --stdio: malformed input", () => {
  it("answers invalid JSON with one -32700 (no id) and stays alive", async () => {
    const proc = serve();
    expect(await answersTo(proc, "this is {not json")).toStrictEqual([unreadable(-32700)]);
    expect(proc.exit).toBeUndefined();
    // Truncated JSON too.
    expect(await answersTo(proc, '{"jsonrpc":"2.0","id":1,"method":"pi')).toStrictEqual([unreadable(-32700)]);
    await proc.initialize();
    expect(await answersTo(proc, "{{")).toStrictEqual([unreadable(-32700)]);
    expect(await proc.request(2, "tools/list")).toHaveProperty("result.tools");
  });

  it.each(["2025-06-18", "2025-03-26"] as const)(
    "answers invalid JSON with -32700 and id null under %s",
    async (rev) => {
      const proc = serve();
      await proc.initialize(rev);
      expect(await answersTo(proc, "this is {not json")).toStrictEqual([unreadable(-32700, rev)]);
      expect(await answersTo(proc, '{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}')).toStrictEqual([
        unreadable(-32600, rev),
      ]);
    },
  );

  it.each([
    ['jsonrpc "1.0"', '{"jsonrpc":"1.0","id":11,"method":"ping"}', 11],
    ["no jsonrpc member", '{"id":12,"method":"ping"}', 12],
    ["method as a number", '{"jsonrpc":"2.0","id":13,"method":42}', 13],
    ["params as an array", '{"jsonrpc":"2.0","id":14,"method":"ping","params":[1,2]}', 14],
    ["params as a string", '{"jsonrpc":"2.0","id":"s15","method":"ping","params":"x"}', "s15"],
    ["neither method nor result", '{"jsonrpc":"2.0","id":16}', 16],
    ["id as an object", '{"jsonrpc":"2.0","id":{"n":17},"method":"ping"}', null],
    ["id as null", '{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
    ["id as a boolean", '{"jsonrpc":"2.0","id":true,"method":"ping"}', null],
    ["a bare number", "42", null],
    ["a bare string", '"ping"', null],
    ["null", "null", null],
  ] as const)("answers %s with -32600 and the id when readable", async (_what, line, id) => {
    const proc = serve();
    await proc.initialize();
    const answers = await answersTo(proc, line);
    expect(answers).toStrictEqual([
      id === null ? unreadable(-32600) : { jsonrpc: "2.0", id, error: { code: -32600, message: expect.any(String) } },
    ]);
  });

  it("does not answer responses or notifications it does not know", async () => {
    const proc = serve();
    await proc.initialize();
    expect(await answersTo(proc, '{"jsonrpc":"2.0","id":99,"result":{}}')).toEqual([]);
    expect(await answersTo(proc, '{"jsonrpc":"2.0","id":98,"error":{"code":-1,"message":"x"}}')).toEqual([]);
    expect(await answersTo(proc, '{"jsonrpc":"2.0","method":"notifications/no_such_thing"}')).toEqual([]);
  });
});

describe("mcpkit serve everything --stdio: methods and lifecycle", () => {
  it("answers an unknown method with -32601 and the same id (number and string ids)", async () => {
    const proc = serve();
    await proc.initialize();
    expect(await proc.request(21, "no/such/method")).toMatchObject({ jsonrpc: "2.0", id: 21, error: { code: -32601 } });
    expect(await proc.request("abc", "tools/nope", {})).toMatchObject({ id: "abc", error: { code: -32601 } });
  });

  it("refuses requests before initialize but answers ping", async () => {
    const proc = serve();
    const early = await proc.request(31, "tools/list");
    expect(early.id).toBe(31);
    expect(code(early)).toEqual(expect.any(Number));
    expect(early).not.toHaveProperty("result");
    expect(await proc.request(32, "ping")).toEqual({ jsonrpc: "2.0", id: 32, result: {} });
    // The refusal did not break the session: the handshake still works afterwards.
    const init = await proc.initialize("2025-11-25", 33);
    expect(init.result).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: "mcpkit-everything" } });
    expect(await proc.request(34, "tools/list")).toHaveProperty("result.tools");
  });

  it("answers a second initialize with an error under its own id and keeps the session", async () => {
    const proc = serve();
    await proc.initialize("2025-11-25", 41);
    const again = await proc.request(42, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "again", version: "0" },
    });
    expect(again.id).toBe(42);
    expect(code(again)).toEqual(expect.any(Number));
    expect(again).not.toHaveProperty("result");
    // Still the first negotiation: bad tool arguments are a tool execution error (isError)
    // in 2025-11-25, where 2025-06-18 would answer -32602.
    const bad = await proc.request(43, "tools/call", { name: "add", arguments: { a: "x" } });
    expect(bad).toMatchObject({ id: 43, result: { isError: true } });
  });

  it("offers its latest revision when the client asks for one it does not know", async () => {
    const proc = serve();
    const init = await proc.request(51, "initialize", {
      protocolVersion: "1999-01-01",
      capabilities: {},
      clientInfo: { name: "old", version: "0" },
    });
    expect(init.result).toMatchObject({ protocolVersion: "2025-11-25" });
  });
});

describe("mcpkit serve everything --stdio: the default 16 MiB message limit", () => {
  const LIMIT = 16 * 1024 * 1024;
  const pingOfSize = (id: number, size: number) => {
    const base = JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: { pad: "" } });
    return JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: { pad: "x".repeat(size - base.length) } });
  };

  it("accepts a 16 MiB line, rejects 16 MiB + 1 byte with -32600, and the next line still works", async () => {
    const proc = serve();
    const exact = pingOfSize(1, LIMIT);
    expect(exact.length).toBe(LIMIT);
    proc.write(`${exact}\n`);
    expect(await proc.response(1, 10_000)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const over = pingOfSize(2, LIMIT + 1);
    expect(over.length).toBe(LIMIT + 1);
    expect(await answersTo(proc, over)).toStrictEqual([unreadable(-32600)]);
    expect(await proc.request(3, "ping")).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });
});

describe("mcpkit serve everything --stdio: JSON-RPC batches", () => {
  it("refuses a batch with one -32600 after negotiating 2025-11-25 (and before initialize)", async () => {
    const proc = serve();
    const batch = JSON.stringify([
      { jsonrpc: "2.0", id: 61, method: "ping" },
      { jsonrpc: "2.0", id: 62, method: "ping" },
    ]);
    expect(await answersTo(proc, batch)).toStrictEqual([unreadable(-32600)]);
    await proc.initialize("2025-11-25");
    expect(await answersTo(proc, batch)).toStrictEqual([unreadable(-32600)]);
    // None of the batch's requests ran.
    expect(proc.messages.some((m) => m.id === 61 || m.id === 62)).toBe(false);
  });

  it("refuses a batch with -32600 and id null after negotiating 2025-06-18", async () => {
    const proc = serve();
    await proc.initialize("2025-06-18");
    const batch = JSON.stringify([{ jsonrpc: "2.0", id: 63, method: "ping" }]);
    expect(await answersTo(proc, batch)).toStrictEqual([unreadable(-32600, "2025-06-18")]);
    expect(proc.messages.some((m) => m.id === 63)).toBe(false);
  });

  it("answers every request of a batch in one array after negotiating 2025-03-26", async () => {
    const proc = serve();
    expect((await proc.initialize("2025-03-26")).result).toMatchObject({ protocolVersion: "2025-03-26" });
    const before = proc.values.length;
    proc.send([
      { jsonrpc: "2.0", id: 71, method: "ping" },
      { jsonrpc: "2.0", id: 72, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", id: 73, method: "no/such/method" },
      { jsonrpc: "2.0", id: 74, method: 5 },
      { jsonrpc: "2.0", id: 75, method: "tools/call", params: { name: "echo", arguments: { text: "in a batch" } } },
    ]);
    const batch = (await proc.waitFor((v) => Array.isArray(v), 5000, "the batch response")) as JsonMessage[];
    // One line, one array: no response to these ids arrived on its own.
    expect(proc.values.slice(before)).toEqual([batch]);
    const byId = new Map(batch.map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual([71, 72, 73, 74, 75]);
    expect(batch).toHaveLength(5);
    expect(byId.get(71)).toEqual({ jsonrpc: "2.0", id: 71, result: {} });
    expect(byId.get(72)).toHaveProperty("result.tools");
    expect(code(byId.get(73))).toBe(-32601);
    expect(code(byId.get(74))).toBe(-32600);
    expect(byId.get(75)).toMatchObject({ result: { content: [{ type: "text", text: "in a batch" }] } });
  });

  it("answers nothing to a batch of notifications and -32600 to an empty batch (2025-03-26)", async () => {
    const proc = serve();
    await proc.initialize("2025-03-26");
    expect(await answersTo(proc, '[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]')).toEqual([]);
    expect(await answersTo(proc, "[]")).toStrictEqual([unreadable(-32600, "2025-03-26")]);
  });
});

describe("mcpkit serve everything --stdio: stdout and process lifetime", () => {
  it("writes nothing but newline-terminated JSON-RPC messages to stdout", async () => {
    const proc = serve();
    await proc.initialize();
    proc.send({ jsonrpc: "2.0", id: 81, method: "logging/setLevel", params: { level: "debug" } });
    proc.send({
      jsonrpc: "2.0",
      id: 82,
      method: "tools/call",
      params: { name: "test_tool_with_logging", arguments: {}, _meta: { progressToken: "p" } },
    });
    proc.send({
      jsonrpc: "2.0",
      id: 83,
      method: "tools/call",
      params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "q" } },
    });
    proc.send({ jsonrpc: "2.0", id: 84, method: "tools/call", params: { name: "test_error_handling", arguments: {} } });
    proc.send({ jsonrpc: "2.0", id: 85, method: "tools/call", params: { name: "add", arguments: { a: "x" } } });
    proc.send({ jsonrpc: "2.0", id: 86, method: "resources/list" });
    proc.send({ jsonrpc: "2.0", id: 87, method: "prompts/list" });
    proc.write("garbage\n");
    for (const id of [81, 82, 83, 84, 85, 86, 87]) await proc.response(id);
    expect(await proc.response(84)).toMatchObject({ result: { isError: true } });
    proc.endInput();
    expect(await proc.waitExit(3000)).toEqual({ code: 0, signal: null });
    expect(proc.badLines).toEqual([]);
    expect(proc.partial).toBe(""); // the last message was newline-terminated too
    for (const value of proc.values) {
      for (const message of Array.isArray(value) ? value : [value]) {
        expect(isObject(message) && message.jsonrpc === "2.0").toBe(true);
      }
    }
    // The logging and progress notifications came through stdout as messages as well.
    expect(proc.messages.filter((m) => m.method === "notifications/message").length).toBe(3);
    expect(proc.messages.filter((m) => m.method === "notifications/progress").length).toBe(3);
  });

  it("exits with code 0 promptly when stdin ends", async () => {
    const proc = serve();
    await proc.initialize();
    const started = Date.now();
    proc.endInput();
    expect(await proc.waitExit(3000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("exits with code 0 promptly when stdin ends while a slow tool is running", async () => {
    const proc = serve();
    await proc.initialize();
    proc.send({
      jsonrpc: "2.0",
      id: 91,
      method: "tools/call",
      params: { name: "test_slow", arguments: { steps: 100, ms: 100 }, _meta: { progressToken: 91 } },
    });
    await proc.waitFor((v) => isObject(v) && v.method === "notifications/progress", 3000, "the first progress");
    const started = Date.now();
    proc.endInput();
    expect(await proc.waitExit(3000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("exits with code 0 promptly on SIGTERM", async () => {
    const proc = serve();
    await proc.initialize();
    proc.child.kill("SIGTERM");
    expect(await proc.waitExit(3000)).toEqual({ code: 0, signal: null });
  });
});
