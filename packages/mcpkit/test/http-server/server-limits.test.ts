import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpHandler } from "../../src/endpoints/http/index.js";
import { createServer } from "../../src/server/index.js";
import { type Listening, type ListenOptions, listen } from "../../src/transports/http/node.js";
import { initializeBody } from "./helpers.js";

let listening: Listening | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

async function serve(options: ListenOptions & { maxBodyBytes?: number } = {}) {
  const server = createServer({ name: "limits", version: "1" });
  const handler = createStreamableHttpHandler(server, { maxBodyBytes: options.maxBodyBytes });
  listening = await listen(handler, options);
  return listening;
}

interface RawOutcome {
  /** Everything the server sent before the connection ended. */
  text: string;
  /** The socket error, if the connection was reset. */
  error?: string;
  /** When the connection ended, ms after it opened. */
  endedAfterMs: number;
}

/**
 * A raw HTTP/1.1 client: sends `head`, then keeps sending `chunk` every `everyMs` (as a
 * client uploading a large body or trickling its headers would) until the server answers
 * or the connection ends; resolves with what it read.
 */
function raw(url: URL, head: string, chunk: string, everyMs: number, maxChunks = 10_000): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    let text = "";
    let error: string | undefined;
    let sent = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const socket: Socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      const pump = () => {
        if (socket.destroyed || socket.writableEnded || sent++ >= maxChunks) return;
        socket.write(chunk, () => {
          timer = setTimeout(pump, everyMs);
        });
      };
      pump();
    });
    socket.setEncoding("utf8");
    socket.on("data", (data: string) => {
      text += data;
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text, error, endedAfterMs: Date.now() - started });
    });
    // The server ended its side: stop sending and close ours.
    socket.on("end", () => socket.end());
  });
}

const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;

describe("listen(): connection limits", () => {
  it("cuts a client that trickles its headers after headersTimeoutMs, with a readable 408", async () => {
    const { url } = await serve({ headersTimeoutMs: 400, requestTimeoutMs: 2000 });
    const outcome = await raw(url, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X-Slow: a\r\n", 50);
    expect(outcome.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(outcome.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    // Node's default would hold it for a minute and more.
    expect(outcome.endedAfterMs).toBeLessThan(3000);
  });

  it("cuts a client that trickles a chunked body after requestTimeoutMs", async () => {
    const { url } = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const head =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
      "Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    const outcome = await raw(url, head, "1\r\n \r\n", 50);
    expect(outcome.endedAfterMs).toBeLessThan(4000);
    expect(outcome.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes connections beyond maxConnections as they arrive, and serves again once they go", async () => {
    const { url } = await serve({ maxConnections: 2 });
    const held = [connect(Number(url.port), url.hostname), connect(Number(url.port), url.hostname)];
    await Promise.all(held.map((s) => new Promise((resolve) => s.once("connect", resolve))));
    const third = await raw(url, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "", 1000, 0);
    expect(third.text).toBe("");
    for (const s of held) s.destroy();
    // The server counts them down as it sees them close (a refused try may hang: it is bounded).
    const status = () =>
      fetch(new URL("/mcp", url), { method: "DELETE", signal: AbortSignal.timeout(1000) }).then(
        (r) => r.status,
        () => undefined,
      );
    await expect.poll(status, { timeout: 10_000 }).toBe(400);
  });
});

describe("listen(): refusals the client can read", () => {
  it("answers an over-limit body announced by Content-Length with a readable 413, then closes (5 of 5)", async () => {
    const { url } = await serve({ maxBodyBytes: 1024 });
    const body = JSON.stringify(initializeBody());
    for (let i = 0; i < 5; i++) {
      const head =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n${body}`;
      const outcome = await raw(url, head, "x".repeat(64 * 1024), 0, 128);
      expect(outcome.error).toBeUndefined();
      expect(outcome.text).toMatch(/^HTTP\/1\.1 413 /);
      expect(outcome.text.toLowerCase()).toContain("connection: close");
      expect(bodyOf(outcome.text)).toMatchObject({
        jsonrpc: "2.0",
        error: { code: -32600, message: expect.stringContaining("1024 bytes") },
      });
    }
  });

  it("answers a 64 KiB header block with a readable 431, then closes (5 of 5)", async () => {
    const { url } = await serve();
    for (let i = 0; i < 5; i++) {
      const head = `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`;
      const outcome = await raw(url, head, "", 1000, 0);
      expect(outcome.error).toBeUndefined();
      expect(outcome.text).toMatch(/^HTTP\/1\.1 431 /);
      expect(bodyOf(outcome.text)).toMatchObject({
        jsonrpc: "2.0",
        error: { code: -32600, message: expect.stringContaining("header") },
      });
    }
  });
});
