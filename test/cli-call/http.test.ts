import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { within } from "../../packages/mcpkit/test/stdio/helpers.js";
import { mcpkit, type Running, requireBuild, serveHttp, start, stopAll, until } from "./helpers.js";

// `mcpkit call` against `mcpkit serve everything --port 0` over Streamable HTTP (and the
// HTTP+SSE endpoint beside it). One server for the file: list changes made by one
// `mcpkit call` reach another one watching.

let url = "";
let server: Running | undefined;

beforeAll(async () => {
  requireBuild();
  ({ url, server } = await serveHttp());
});
afterEach(stopAll);
afterAll(async () => {
  // SIGKILL: a graceful stop would wait for handlers still running (a cancelled test_slow).
  server?.child.kill("SIGKILL");
  await server?.done;
});

describe("mcpkit call over HTTP against mcpkit serve everything", () => {
  it("lists tools and calls one over Streamable HTTP (2026-07-28)", async () => {
    const tools = await mcpkit(["call", url, "tools"]);
    expect(tools.code).toBe(0);
    expect(tools.stdout).toContain("add(a: number, b: number)");
    const call = await mcpkit(["call", url, "add", "a=2", "b=3"]);
    expect(call).toMatchObject({ code: 0, stdout: '{"sum":5}\n' });
    // The older spelling, with the action word, still works.
    expect(await mcpkit(["call", url, "call", "add", "a=2", "b=3"])).toMatchObject({ code: 0, stdout: '{"sum":5}\n' });
  });

  it("refuses an argument the tool does not declare, naming the ones it does (exit 2, nothing sent)", async () => {
    const bogus = await mcpkit(["call", url, "add", "a=2", "b=3", "bogus=1"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('The tool add has no argument "bogus" (its arguments: a, b)');
    const typo = await mcpkit(["call", url, "tool"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('The server has no tool "tool"; did you mean tools?');
  });

  it("speaks an older revision with --protocol, and HTTP+SSE at the legacy endpoint", async () => {
    const handshake = await mcpkit(["call", "--protocol", "2025-11-25", url, "call", "echo", "text=hi"]);
    expect(handshake).toMatchObject({ code: 0, stdout: "hi\n" });
    const sse = await mcpkit(["call", url.replace(/\/mcp$/, "/sse"), "info"]);
    expect(sse.code).toBe(0);
    expect(sse.stdout).toContain("protocol 2025-11-25 (initialize handshake)");
  });

  it("watch prints notifications as they arrive, and Ctrl+C ends it with 0", async () => {
    const human = start(["call", url, "watch", "test://watched-resource"]);
    const json = start(["call", "--json", url, "watch"]);
    await until(() => human.stderr.includes("Ctrl+C") && json.stderr.includes("Ctrl+C"), 8000, "both watches to start");
    expect(human.stderr).toContain("Watching tools, prompts, resources, test://watched-resource; Ctrl+C to stop");

    expect((await mcpkit(["call", url, "call", "test_update_watched_resource", "text=v2"])).code).toBe(0);
    expect((await mcpkit(["call", url, "call", "test_toggle_tool"])).code).toBe(0);
    await until(() => human.stdout.includes("tools changed") && json.stdout.includes("list_changed"), 5000, "events");
    expect(human.stdout).toMatch(/^\d\d:\d\d:\d\d {2}resource updated {2}test:\/\/watched-resource\n/);
    const event = JSON.parse(json.stdout.split("\n")[0] as string);
    expect(event).toMatchObject({ method: "notifications/tools/list_changed" });

    human.child.kill("SIGINT");
    json.child.kill("SIGINT");
    expect((await human.done).code).toBe(0);
    expect((await json.done).code).toBe(0);
    await mcpkit(["call", url, "call", "test_toggle_tool"]); // put test_optional_tool back
  });

  it("Ctrl+C cancels a call under way: exit 130, the server sees the cancellation and keeps serving", async () => {
    // A server in this process, so the test knows when the call has reached it.
    let called = () => {};
    const seen = new Promise<void>((resolve) => {
      called = resolve;
    });
    let aborted = () => {};
    const cancelled = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const waiter = createServer({ name: "waiter", version: "1" });
    waiter.tool("wait", { description: "Waits until cancelled", input: z.object({}) }, async (_args, ctx) => {
      called();
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      aborted();
      return "cancelled";
    });
    const handler = createStreamableHttpHandler(waiter);
    const listening = await listen(handler);
    try {
      const endpoint = new URL("/mcp", listening.url).href;
      const slow = start(["call", endpoint, "wait"]);
      await within(seen, 10_000, "the server to receive the call");
      const started = Date.now();
      slow.child.kill("SIGINT");
      const run = await slow.done;
      expect(run.code).toBe(130);
      expect(Date.now() - started).toBeLessThan(3000);
      await within(cancelled, 5000, "the server to see the cancellation");
      expect((await mcpkit(["call", url, "echo", "text=still here"])).stdout).toBe("still here\n");
    } finally {
      await listening.close();
    }
  });

  it("4 for a request that times out (--timeout) and for a server that is not there", async () => {
    const timeout = await mcpkit(["call", "--timeout", "0.3", url, "call", "test_slow", "steps=1", "ms=1500"]);
    expect(timeout.code).toBe(4);
    expect(timeout.stderr).toContain("timed out after");
    const refused = await mcpkit(["call", "http://127.0.0.1:1/mcp", "tools"]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("POST http://127.0.0.1:1/mcp failed");
  });

  it("4 for a port nothing listens on, asking whether the server is running", async () => {
    const closed = await listen(createStreamableHttpHandler(createServer({ name: "gone", version: "1" })));
    const port = closed.url.port;
    await closed.close();
    const refused = await mcpkit(["call", `http://127.0.0.1:${port}/mcp`, "tools"]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("(ECONNREFUSED)");
    expect(refused.stderr).toContain(
      `Nothing is listening on 127.0.0.1:${port}: is the server running, and on that port?`,
    );
  });
});
