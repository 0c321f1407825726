import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../../src/server/index.js";
import { allEvents, messagesOf, serveHttp, sessionHeaders } from "./helpers.js";

/** A tool that runs until its request is cancelled, saying so first when `announce` is set. */
function waitingServer() {
  const started: string[] = [];
  const aborted: string[] = [];
  const server = createServer({ name: "cancel", version: "1" });
  server.tool(
    "wait",
    { input: z.object({ tag: z.string(), announce: z.boolean() }) },
    async ({ tag, announce }, ctx) => {
      started.push(tag);
      if (announce) ctx.progress(1, 2, "started");
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      aborted.push(tag);
      return "too late";
    },
  );
  return { server, started, aborted };
}

let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const wait = (id: number, tag: string, announce: boolean) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "wait", arguments: { tag, announce }, _meta: { progressToken: `p${id}` } },
});

describe("Streamable HTTP (2025-11-25): a request cancelled by notifications/cancelled", () => {
  for (const announce of [true, false]) {
    const when = announce ? "after its stream began" : "before anything was sent on it";
    it(`ends the POST's stream without an answer ${when}, frees the session, and does not hold up shutdown`, async () => {
      const { server, started, aborted } = waitingServer();
      served = await serveHttp(server, { drainTimeoutMs: 15_000 });
      const session = await served.open();
      const headers = sessionHeaders(session);
      const pending = served.post(wait(7, "seven", announce), headers);
      if (announce) {
        // The progress notification turned the answer into a stream: wait for it.
        const response = await pending;
        expect(response.headers.get("content-type")).toBe("text/event-stream");
        const events = allEvents(response, 10_000);
        const cancel = await served.post(
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "changed my mind" } },
          headers,
        );
        expect(cancel.status).toBe(202);
        const messages = messagesOf(await events);
        expect(messages.map((m) => m.method ?? `response ${String(m.id)}`)).toEqual(["notifications/progress"]);
      } else {
        // Nothing is sent before the cancellation: the POST's answer is still undecided.
        await expect.poll(() => started).toEqual(["seven"]);
        const cancel = await served.post(
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } },
          headers,
        );
        expect(cancel.status).toBe(202);
        const response = await pending;
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("text/event-stream");
        expect(messagesOf(await allEvents(response, 10_000))).toEqual([]);
      }
      await expect.poll(() => aborted).toEqual(["seven"]);
      // The session serves on, and the same id may be used again.
      const again = await served.post({ jsonrpc: "2.0", id: 7, method: "tools/list" }, headers);
      expect(await again.json()).toMatchObject({ id: 7, result: { tools: [{ name: "wait" }] } });
      // Shutdown has nothing to wait for: far less than its 15 s drain timeout.
      const closing = Date.now();
      await served.handler.close();
      expect(Date.now() - closing).toBeLessThan(2000);
    });
  }
});

describe("Streamable HTTP (2026-07-28): a request cancelled by closing its stream", () => {
  it("stops the handler, sends nothing more, and does not hold up shutdown", async () => {
    const { server, aborted } = waitingServer();
    served = await serveHttp(server, { drainTimeoutMs: 15_000 });
    const controller = new AbortController();
    const response = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "wait",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "wait",
          arguments: { tag: "modern", announce: true },
          _meta: {
            progressToken: "m1",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("notifications/progress");
    controller.abort();
    await expect.poll(() => aborted).toEqual(["modern"]);
    const started = Date.now();
    await served.handler.close();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/** A tool that fails with its signal's reason when cancelled, as a handler honouring its signal does. */
function rejectingServer() {
  const reported: unknown[] = [];
  const aborted: string[] = [];
  const server = createServer({ name: "cancel", version: "1", onError: (error) => reported.push(error) });
  server.tool("wait", {}, async (_args, ctx) => {
    ctx.progress(1, 2, "started");
    await new Promise<void>((_resolve, reject) =>
      ctx.signal.addEventListener(
        "abort",
        () => {
          aborted.push("wait");
          reject(ctx.signal.reason);
        },
        { once: true },
      ),
    );
    return "too late";
  });
  server.prompt("fail", {}, () => {
    throw new Error("the disk is full");
  });
  return { server, reported, aborted };
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** POSTs a call of `wait`, reads its first event (the progress), then closes the stream. */
async function callAndClose(url: string, revision: "2026-07-28" | "2025-11-25"): Promise<void> {
  const modern = revision === "2026-07-28";
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": revision,
      ...(modern && { "mcp-method": "tools/call", "mcp-name": "wait" }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "wait", arguments: {}, _meta: { progressToken: "p", ...(modern && MODERN_META) } },
    }),
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain("notifications/progress");
  controller.abort();
}

describe("Streamable HTTP: a client closing its request's stream is its choice, not a server fault", () => {
  const cases = [
    { era: "2026-07-28", revision: "2026-07-28", sessions: true },
    { era: "a sessionless 2025-11-25 endpoint", revision: "2025-11-25", sessions: false },
  ] as const;
  for (const { era, revision, sessions } of cases) {
    it(`${era}: the handler's rejection with the cancellation reaches no onError (no stack on the server's stderr)`, async () => {
      const { server, reported, aborted } = rejectingServer();
      served = await serveHttp(server, { sessions });
      await callAndClose(served.url, revision);
      await expect.poll(() => aborted).toEqual(["wait"]);
      // The rejection settles in the same turn as the abort: had it been reported, it would be by now.
      expect(reported).toEqual([]);
      // A real failure is still reported (and answered without its message).
      const failed = await fetch(served.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": revision,
          ...(revision === "2026-07-28" && { "mcp-method": "prompts/get", "mcp-name": "fail" }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "prompts/get",
          params: { name: "fail", ...(revision === "2026-07-28" && { _meta: MODERN_META }) },
        }),
      });
      expect(await failed.json()).toMatchObject({ id: 2, error: { code: -32603, message: "Internal error" } });
      expect(reported.map((e) => (e as Error).message)).toEqual(["the disk is full"]);
    });
  }
});
