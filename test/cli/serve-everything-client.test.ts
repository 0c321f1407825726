import { existsSync } from "node:fs";
import { Client } from "mcpkit/client";
import { McpError } from "mcpkit/jsonrpc";
import { type StdioClientTransport, stdioClientTransport } from "mcpkit/stdio";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, forceKill, isAlive, REPO_ROOT, within } from "../../packages/mcpkit/test/stdio/helpers.js";

// The mcpkit client over a real stdio transport against `mcpkit serve everything --stdio`
// (the built CLI: `npx tsc -b packages/mcpkit packages/cli`). A tap on the transport records
// every message in both directions, so the tests can check what crossed the pipe.

type Message = Record<string, unknown>;
type Transport = Parameters<Client["connect"]>[0];

interface Tapped {
  transport: Transport;
  inner: StdioClientTransport;
  incoming: Message[];
  outgoing: Message[];
}

function tap(inner: StdioClientTransport): Tapped {
  const incoming: Message[] = [];
  const outgoing: Message[] = [];
  const flat = (m: unknown) => (Array.isArray(m) ? m : [m]) as Message[];
  const transport: Transport = {
    start: (sink) =>
      inner.start({
        message: (value, info) => {
          incoming.push(...flat(value));
          sink.message(value, info);
        },
        invalid: (error) => sink.invalid(error),
        close: (reason) => sink.close(reason),
      }),
    send: (message, options) => {
      outgoing.push(...flat(message));
      inner.send(message, options);
    },
    close: () => inner.close(),
  };
  return { transport, inner, incoming, outgoing };
}

const live: { client: Client; pid: number | undefined }[] = [];

beforeAll(() => {
  if (!existsSync(`${REPO_ROOT}packages/cli/dist/main.js`))
    throw new Error("packages/cli/dist is missing: run `npx tsc -b packages/mcpkit packages/cli` first");
});

afterEach(async () => {
  for (const { client, pid } of live) {
    await within(client.close(), 5000, "client.close()").catch(() => undefined);
    forceKill(pid, true);
  }
  live.length = 0;
});

async function connect(): Promise<{ client: Client } & Tapped> {
  const inner = stdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, "serve", "everything", "--stdio"],
    stderr: "pipe",
    killTimeoutMs: 500,
  });
  const tapped = tap(inner);
  const client = new Client({ name: "cli-e2e", version: "0.0.0", timeoutMs: 10_000 });
  const entry = { client, pid: undefined as number | undefined };
  live.push(entry);
  const connecting = client.connect(tapped.transport);
  connecting.catch(() => undefined).finally(() => (entry.pid = inner.pid));
  const init = await within(connecting, 8000, "connect to mcpkit serve everything");
  entry.pid = inner.pid;
  expect(init.protocolVersion).toBe("2025-11-25");
  expect(init.serverInfo.name).toBe("mcpkit-everything");
  return { client, ...tapped };
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text?: string }).text;

describe("mcpkit client over stdio against mcpkit serve everything", () => {
  it("calls test_simple_text", async () => {
    const { client } = await connect();
    const result = await client.callTool("test_simple_text");
    expect(result.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    expect(result.isError).toBeFalsy();
  });

  it("receives three increasing progress values from test_tool_with_progress, all before the result", async () => {
    const { client } = await connect();
    const seen: { progress: number; total?: number }[] = [];
    const result = await client.callTool("test_tool_with_progress", {}, { onprogress: (p) => seen.push(p) });
    expect(textOf(result)).toBe("Progress test completed");
    expect(seen.map((p) => p.progress)).toEqual([0, 50, 100]);
    expect(seen.every((p) => p.total === 100)).toBe(true);
  });

  it("receives the logging notifications of test_tool_with_logging, filtered by logging/setLevel", async () => {
    const { client } = await connect();
    const logs: Record<string, unknown>[] = [];
    client.on("notifications/message", (params) => logs.push(params));
    await client.setLogLevel("info");
    await client.callTool("test_tool_with_logging");
    expect(logs.map((l) => l.data)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    expect(logs.every((l) => l.level === "info" && l.logger === "everything")).toBe(true);

    logs.length = 0;
    await client.setLogLevel("error");
    expect(textOf(await client.callTool("test_tool_with_logging"))).toBe("Logging test completed");
    expect(logs).toEqual([]);
  });

  it("cancels test_slow with an AbortSignal; the server stops, sends no late answer, and keeps serving", async () => {
    const { client, incoming, outgoing } = await connect();
    const controller = new AbortController();
    const progress: number[] = [];
    const started = Date.now();
    // The user gives up once the tool is seen working (its first progress).
    const call = client.callTool(
      "test_slow",
      { steps: 50, ms: 100 },
      {
        signal: controller.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          controller.abort(new Error("user gave up"));
        },
      },
    );
    await expect(within(call, 3000, "the aborted call to reject")).rejects.toThrow("user gave up");
    expect(Date.now() - started).toBeLessThan(1500);

    const request = outgoing.find((m) => m.method === "tools/call");
    const id = request?.id;
    expect(id).toBeDefined();
    // basic/utilities/cancellation: the client told the server.
    expect(outgoing).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: "user gave up" },
    });

    // Give a misbehaving server time to keep going, then look at what it sent: a server
    // ignoring the cancellation shows only over time, so the server itself measures it: a
    // call of four of the same 100 ms steps, whose answer comes once it has taken them.
    await within(client.callTool("test_slow", { steps: 4, ms: 100 }), 5000, "four steps of the server's time");
    const after = await client.callTool("test_simple_text");
    expect(textOf(after)).toBe("This is a simple text response for testing.");
    expect(incoming.some((m) => m.id === id)).toBe(false);
    const tokenProgress = incoming.filter(
      (m) => m.method === "notifications/progress" && (m.params as Message).progressToken === id,
    );
    // At most the step that was already under way when the cancellation arrived.
    expect(tokenProgress.length).toBeLessThanOrEqual(2);
    expect(progress.length).toBeLessThanOrEqual(2);
  });

  it("times out test_slow with -32001 when resetTimeoutOnProgress is false, and cancels it on the server", async () => {
    const { client, incoming, outgoing } = await connect();
    const started = Date.now();
    const call = client.callTool(
      "test_slow",
      { steps: 50, ms: 40 },
      { timeoutMs: 100, resetTimeoutOnProgress: false, onprogress: () => {} },
    );
    const error = await within(call, 3000, "the call to time out").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32001);
    expect(Date.now() - started).toBeLessThan(1000);
    const id = outgoing.find((m) => m.method === "tools/call")?.id;
    expect(outgoing.some((m) => m.method === "notifications/cancelled" && (m.params as Message).requestId === id)).toBe(
      true,
    );
    // As above: a late answer could only show over time, measured by the server's own steps.
    await within(client.callTool("test_slow", { steps: 8, ms: 40 }), 5000, "eight steps of the server's time");
    expect(incoming.some((m) => m.id === id)).toBe(false);
    expect(textOf(await client.callTool("test_simple_text"))).toBe("This is a simple text response for testing.");
  });

  it("times out without progress, and progress keeps a call alive past timeoutMs by default", async () => {
    const { client } = await connect();
    await expect(client.callTool("test_slow", { steps: 3, ms: 100 }, { timeoutMs: 100 })).rejects.toMatchObject({
      code: -32001,
    });
    // 5 steps of 100 ms (500 ms in all) with a 250 ms timeout that every progress restarts.
    const seen: number[] = [];
    const result = await client.callTool(
      "test_slow",
      { steps: 5, ms: 100 },
      { timeoutMs: 250, onprogress: (p) => seen.push(p.progress) },
    );
    expect(textOf(result)).toBe("Finished 5 steps");
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("carries large messages intact in both directions (multi-chunk lines, multi-byte characters)", async () => {
    const { client } = await connect();
    const text = "héllo wörld ✓ 😀 ".repeat(60_000); // about 1.3 MB of UTF-8
    const result = await client.callTool("echo", { text });
    expect(textOf(result)).toBe(text);
  });

  it("runs concurrent calls over one pipe and matches every answer to its request", async () => {
    const { client } = await connect();
    const texts = Array.from({ length: 20 }, (_, i) => `message ${i}`);
    const results = await Promise.all(texts.map((text) => client.callTool("echo", { text })));
    expect(results.map(textOf)).toEqual(texts);
  });

  it("close() ends the server promptly with exit code 0", async () => {
    const { client, inner } = await connect();
    const pid = inner.pid!;
    const started = Date.now();
    await within(client.close(), 3000, "close()");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(inner.exit).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
    expect(client.isConnected).toBe(false);
  });
});
