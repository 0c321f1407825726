import { afterEach, describe, expect, it } from "vitest";
import { type RunningRequest, RunningRequests } from "../../src/endpoints/http/running-requests.js";
import { createServer } from "../../src/server/index.js";
import { serveHttp } from "./helpers.js";

// A request answered on its own (2026-07-28, or a legacy one on a server without
// sessions) that is still running when the server closes is stopped: its handler's signal
// aborts with the shutdown error, which is its answer.

let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

function waitingServer() {
  const server = createServer({ name: "closing", version: "1" });
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  server.tool("wait", {}, (_args, ctx) => {
    started();
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
    });
  });
  return { server, running };
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("server.close() with requests answered on their own still running", () => {
  it("answers a 2026-07-28 request with the shutdown error", async () => {
    const { server, running } = waitingServer();
    served = await serveHttp(server);
    const answer = served.post(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "wait", arguments: {}, _meta: MODERN_META } },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "wait" },
    );
    await running;
    await server.close();
    expect(await (await answer).json()).toMatchObject({
      id: 7,
      error: { message: expect.stringContaining("The server is shutting down") },
    });
  });

  it("answers a legacy request on a server without sessions with the shutdown error", async () => {
    const { server, running } = waitingServer();
    served = await serveHttp(server, { sessions: false });
    const answer = served.post(
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "wait", arguments: {} } },
      { "mcp-protocol-version": "2025-11-25" },
    );
    await running;
    await server.close();
    expect(await (await answer).json()).toMatchObject({
      id: 8,
      error: { message: expect.stringContaining("The server is shutting down") },
    });
  });
});

describe("RunningRequests: the list running requests link into", () => {
  const request = (name: string, stopped: string[]): RunningRequest => ({
    abandon: () => stopped.push(name),
    previousRunning: undefined,
    nextRunning: undefined,
  });

  it("keeps every request added and not removed, whichever position it was removed from", () => {
    const stopped: string[] = [];
    const list = new RunningRequests();
    const [a, b, c, d] = ["a", "b", "c", "d"].map((n) => request(n, stopped)) as RunningRequest[];
    for (const r of [a, b, c, d]) list.add(r as RunningRequest);
    list.remove(c as RunningRequest); // the middle
    list.remove(d as RunningRequest); // the head
    list.remove(d as RunningRequest); // gone already: nothing happens
    for (const r of list.all()) r.abandon(undefined);
    expect(stopped.sort()).toEqual(["a", "b"]);
    list.remove(a as RunningRequest); // the tail
    list.remove(b as RunningRequest);
    expect(list.all()).toEqual([]);
  });
});
