import { afterEach, describe, expect, it, vi } from "vitest";
import { Connection } from "../src/connection/connection.js";
import { ErrorCode, McpError } from "../src/jsonrpc/errors.js";
import { createLinkedPair } from "../src/transports/memory/linked-pair.js";
import { rawPeer, recordSent } from "./helpers.js";

/** A promise and the function that settles it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

afterEach(() => {
  vi.useRealTimers();
});

/** Two raw JSON-RPC peers over the in-memory pair. */
function pair(onRequest: ConstructorParameters<typeof Connection>[1]["onRequest"], options = {}) {
  const [a, b] = createLinkedPair();
  const server = new Connection(b, { onRequest, ...options });
  const client = new Connection(a, { onRequest: () => ({}) });
  return { server, client, start: () => Promise.all([server.start(), client.start()]) };
}

describe("JSON-RPC connection", () => {
  it("correlates each response with its request, whatever the completion order", async () => {
    const gates = new Map([30, 10, 20].map((n) => [n, deferred()]));
    const { client, start } = pair(async (req) => {
      await gates.get(Number(req.params?.n))?.promise;
      return { echo: req.params?.n };
    });
    await start();
    const [a, b, c] = [30, 10, 20].map((n) => client.request("x", { n }));
    // Finished in the order 10, 20, 30: each answer is awaited before the next is released.
    gates.get(10)?.resolve();
    await expect(b).resolves.toEqual({ echo: 10 });
    gates.get(20)?.resolve();
    await expect(c).resolves.toEqual({ echo: 20 });
    gates.get(30)?.resolve();
    await expect(a).resolves.toEqual({ echo: 30 });
  });

  it("never delivers one connection's response to another connection using the same ids", async () => {
    const one = pair(() => ({ who: "one" }));
    const two = pair(() => ({ who: "two" }));
    await Promise.all([one.start(), two.start()]);
    // Both clients number their requests from the same starting id.
    const [a, b] = await Promise.all([one.client.request("x"), two.client.request("x")]);
    expect(a).toEqual({ who: "one" });
    expect(b).toEqual({ who: "two" });
  });

  it("ignores responses with ids it never issued", async () => {
    const [a, b] = createLinkedPair();
    const client = new Connection(a, { onRequest: () => ({}) });
    await client.start();
    const peer = rawPeer(b);
    const pending = client.request("x");
    const req = await peer.next((m) => "method" in m && m.method === "x");
    peer.send({ jsonrpc: "2.0", id: 999, result: { wrong: true } });
    peer.send({ jsonrpc: "2.0", id: String((req as { id: number }).id), result: { wrong: "string id" } });
    peer.send({ jsonrpc: "2.0", id: (req as { id: number }).id, result: { right: true } });
    await expect(pending).resolves.toEqual({ right: true });
  });

  it("reports an error answer without an id as the peer's failure to read what this side sent", async () => {
    const [a, b] = createLinkedPair();
    const reported = deferred<unknown>();
    const side = new Connection(a, { onRequest: () => ({}), onError: reported.resolve });
    await side.start();
    rawPeer(b).send({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: "Parse error" } });
    const error = (await reported.promise) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.ParseError);
    expect(error.message).toBe("The peer could not read a message from this side: Parse error (-32700)");
  });

  it("answers a handler's McpError with its code and data", async () => {
    const { client, start } = pair(() => {
      throw new McpError(ErrorCode.InvalidParams, "bad thing", { field: "x" });
    });
    await start();
    const error = await client.request("x").catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, message: "bad thing", data: { field: "x" } });
  });

  it("answers an unexpected exception with -32603 and no internal detail", async () => {
    const onError = vi.fn();
    const [a, b] = createLinkedPair();
    const server = new Connection(b, {
      onRequest: () => {
        throw new Error("secret path /etc/passwd at line 3");
      },
      onError,
    });
    await server.start();
    const peer = rawPeer(a);
    const response = (await peer.request("x")) as { error: { code: number; message: string; data?: unknown } };
    expect(response.error).toEqual({ code: -32603, message: "Internal error" });
    expect(JSON.stringify(response)).not.toContain("secret");
    expect(onError).toHaveBeenCalledOnce();
  });

  it("times out a request and tells the peer it is cancelled", async () => {
    const cancelled = deferred<unknown>();
    const { client, start } = pair(
      (req) =>
        new Promise((resolve) => {
          req.signal.addEventListener("abort", () => {
            cancelled.resolve(req.signal.reason);
            resolve({});
          });
        }),
    );
    await start();
    const error = await client.request("slow", {}, { timeoutMs: 50 }).catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    // The server's handler saw notifications/cancelled.
    expect(String(await cancelled.promise)).toContain("timed out");
  });

  it("restarts the timeout on progress, unless told not to, and honours a total limit", async () => {
    // Timers and Date are fake: the in-memory pair delivers in microtasks, so the clock
    // alone decides which of 40 ms steps and the 70 ms timeout comes first.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let server!: Connection;
    const env = pair(async (req) => {
      for (let i = 1; i <= 4; i++) {
        await tick(40);
        server.notify(
          "notifications/progress",
          { progressToken: req.progressToken ?? "", progress: i, total: 4 },
          req.id,
        );
      }
      return { done: true };
    });
    server = env.server;
    await env.start();
    const progress: number[] = [];
    const settled = async (request: Promise<unknown>, ms: number) => {
      const outcome = request.then(
        (value) => ({ value, at: Date.now() }),
        (error) => ({ error, at: Date.now() }),
      );
      const from = Date.now();
      await vi.advanceTimersByTimeAsync(ms);
      const { at, ...rest } = await outcome;
      return { ...rest, after: at - from };
    };
    // 160 ms of work against a 70 ms timeout: only the progress keeps the request alive.
    expect(
      await settled(
        env.client.request("work", {}, { timeoutMs: 70, onprogress: (p) => progress.push(p.progress) }),
        200,
      ),
    ).toEqual({ value: { done: true }, after: 160 });
    expect(progress).toEqual([1, 2, 3, 4]);
    const once = await settled(
      env.client.request("work", {}, { timeoutMs: 70, resetTimeoutOnProgress: false, onprogress: () => {} }),
      200,
    );
    expect(once).toMatchObject({ error: { code: ErrorCode.RequestTimeout }, after: 70 });
    const total = await settled(
      env.client.request("work", {}, { timeoutMs: 70, maxTotalTimeoutMs: 100, onprogress: () => {} }),
      200,
    );
    expect(total).toMatchObject({ error: { code: ErrorCode.RequestTimeout }, after: 100 });
  });

  it("sends notifications/cancelled when the caller aborts, the handler's signal fires, and its late answer is not sent", async () => {
    const running = deferred();
    const aborted = deferred<unknown>();
    const [a, b] = createLinkedPair();
    const sent = recordSent(b);
    const server = new Connection(b, {
      onRequest: (req) =>
        req.method !== "x"
          ? {}
          : new Promise((resolve) => {
              running.resolve();
              req.signal.addEventListener("abort", () => {
                resolve({ late: true }); // must not be sent: the request was cancelled
                aborted.resolve(req.signal.reason);
              });
            }),
    });
    const client = new Connection(a, { onRequest: () => ({}) });
    await Promise.all([server.start(), client.start()]);
    const controller = new AbortController();
    const pending = client.request("x", {}, { signal: controller.signal });
    await running.promise;
    controller.abort(new Error("user gave up"));
    await expect(pending).rejects.toThrow("user gave up");
    expect(String(await aborted.promise)).toContain("user gave up");
    // The handler has answered; the answer to a later request comes after anything it caused.
    await client.request("later");
    expect(sent).toEqual([{ jsonrpc: "2.0", id: expect.anything(), result: {} }]);
  });

  it("sends no response for a request the peer cancelled", async () => {
    const [a, b] = createLinkedPair();
    const aborted = deferred();
    const server = new Connection(b, {
      onRequest: (req) =>
        req.method !== "x"
          ? {}
          : new Promise((resolve) =>
              req.signal.addEventListener("abort", () => {
                resolve({ late: true }); // the handler finishes anyway, after the cancellation
                aborted.resolve();
              }),
            ),
    });
    await server.start();
    const peer = rawPeer(a);
    peer.send({ jsonrpc: "2.0", id: 1, method: "x" });
    peer.notify("notifications/cancelled", { requestId: 1, reason: "no longer needed" });
    await aborted.promise;
    await peer.request("later"); // answered after anything the cancelled request caused
    expect(peer.received.filter((m) => "id" in m && m.id === 1)).toEqual([]);
  });

  it("never cancels initialize", async () => {
    const [a, b] = createLinkedPair();
    const finish = deferred();
    const server = new Connection(b, {
      onRequest: (req) => (req.method === "initialize" ? finish.promise.then(() => ({ ok: true })) : {}),
    });
    await server.start();
    const peer = rawPeer(a);
    peer.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    peer.notify("notifications/cancelled", { requestId: 1 });
    await peer.request("later"); // the cancellation has been read
    finish.resolve();
    await expect(peer.next((m) => "result" in m && m.id === 1)).resolves.toMatchObject({ result: { ok: true } });
  });

  it("rejects pending requests when the transport closes", async () => {
    const arrived = deferred();
    const { client, server, start } = pair(() => {
      arrived.resolve();
      return new Promise(() => {});
    });
    await start();
    const pending = client.request("never");
    await arrived.promise;
    await server.close();
    const error = await pending.catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
    await expect(client.request("after")).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
  });

  it("refuses a second request with an id still in progress, with that id", async () => {
    const [a, b] = createLinkedPair();
    const finish = deferred();
    const server = new Connection(b, { onRequest: () => finish.promise.then(() => ({ ok: 1 })) });
    await server.start();
    const peer = rawPeer(a);
    peer.send({ jsonrpc: "2.0", id: 7, method: "x" });
    peer.send({ jsonrpc: "2.0", id: 7, method: "x" });
    const first = await peer.next((m) => "error" in m);
    expect(first).toMatchObject({ id: 7, error: { code: -32600 } });
    finish.resolve(); // the first one is still in progress until now
    await expect(peer.next((m) => "result" in m)).resolves.toMatchObject({ id: 7, result: { ok: 1 } });
  });

  it("answers a batch with one array, in request order, when the revision allows batches", async () => {
    const [a, b] = createLinkedPair();
    const secondDone = deferred();
    const server = new Connection(b, {
      onRequest: async (req) => {
        // The first request finishes last.
        if (req.params?.n === 1) await secondDone.promise;
        else secondDone.resolve();
        return { n: req.params?.n };
      },
      batchesAllowed: () => true,
    });
    await server.start();
    const peer = rawPeer(a);
    peer.send([
      { jsonrpc: "2.0", id: 1, method: "x", params: { n: 1 } },
      { jsonrpc: "2.0", method: "note" },
      { jsonrpc: "2.0", id: 2, method: "x", params: { n: 2 } },
      { jsonrpc: "1.0", id: 3, method: "x" },
    ]);
    await peer.next((m) => "id" in m && m.id === 1); // the batch's answer arrives as one
    expect(peer.batches).toHaveLength(1);
    expect(peer.batches[0]).toEqual([
      { jsonrpc: "2.0", id: 1, result: { n: 1 } },
      { jsonrpc: "2.0", id: 2, result: { n: 2 } },
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: expect.stringContaining("jsonrpc") } },
    ]);
  });

  it("refuses batches (and empty ones) when the revision does not allow them", async () => {
    const [a, b] = createLinkedPair();
    const onRequest = vi.fn(() => ({}));
    const server = new Connection(b, { onRequest, batchesAllowed: () => false });
    await server.start();
    const peer = rawPeer(a);
    peer.send([{ jsonrpc: "2.0", id: 1, method: "x" }]);
    const refusal = await peer.next((m) => "error" in m);
    expect(refusal).toMatchObject({ error: { code: -32600, message: expect.stringContaining("batches") } });
    expect("id" in refusal).toBe(false); // 2025-11-25 leaves an unreadable id out
    expect(onRequest).not.toHaveBeenCalled();
  });
});
