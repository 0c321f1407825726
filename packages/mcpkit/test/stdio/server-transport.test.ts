import { afterEach, describe, expect, it } from "vitest";
import { FIXTURES, isObject, type JsonMessage, type LineProcess, ProcessPool, sleep } from "./helpers.js";

// The server half of transports §stdio, framing and size limits, over a real process: the
// fixture server (./fixtures/server.mjs, built library) with stdioServerTransport({ maxMessageBytes: 256 }).

const LIMIT = 256;
const pool = new ProcessPool();

afterEach(async () => {
  for (const proc of procs) expect(proc.badLines, "stdout lines that are not JSON").toEqual([]);
  procs.length = 0;
  await pool.cleanup();
});

const procs: LineProcess[] = [];
function start(): LineProcess {
  const proc = pool.spawn(process.execPath, [`${FIXTURES}server.mjs`, `--max-bytes=${LIMIT}`]);
  procs.push(proc);
  return proc;
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** A ping request whose serialized line is exactly `size` bytes (without the newline). */
function pingOfSize(id: number, size: number, filler = "x"): string {
  const base = JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: { pad: "" } });
  const missing = size - bytes(base);
  const unit = bytes(filler);
  if (missing < 0) throw new Error(`a ping is already ${bytes(base)} bytes`);
  const pad = filler.repeat(Math.floor(missing / unit)) + "x".repeat(missing % unit);
  const line = JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: { pad } });
  expect(bytes(line)).toBe(size);
  return line;
}

/**
 * Errors about a message whose id could not be read. Since 2025-11-25 such an error leaves
 * `id` out (JSONRPCErrorResponse.id is optional, never null), and before initialize the server
 * follows its latest revision; earlier revisions say `id: null` (JSON-RPC 2.0 §5).
 */
const unreadableIdErrors = (proc: LineProcess, code: number, id: null | "absent" = "absent") =>
  proc.messages.filter(
    (m) => (id === "absent" ? !("id" in m) : m.id === null) && isObject(m.error) && m.error.code === code,
  );

const errorOf = (m: JsonMessage) => m.error as { code: number; message: string };

describe("stdio server transport: message size limit", () => {
  it("accepts a line of exactly maxMessageBytes and rejects one byte more with -32600, then keeps serving", async () => {
    const proc = start();
    const exact = pingOfSize(1, LIMIT);
    proc.write(`${exact}\n`);
    expect(await proc.response(1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });

    proc.write(`${pingOfSize(2, LIMIT + 1)}\n`);
    expect(await proc.request(3, "ping")).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    // The oversized request was never read: no answer under its id, one -32600 without an id.
    expect(proc.messages.some((m) => m.id === 2)).toBe(false);
    const errors = unreadableIdErrors(proc, -32600);
    expect(errors).toHaveLength(1);
    expect(errorOf(errors[0]!).message).toMatch(/256/);
  });

  it("counts the limit in UTF-8 bytes, not characters", async () => {
    const proc = start();
    // 2-byte characters: fewer than LIMIT characters, more than LIMIT bytes.
    const line = pingOfSize(1, LIMIT + 2, "é");
    expect(line.length).toBeLessThan(LIMIT);
    proc.write(`${line}\n`);
    expect(await proc.request(2, "ping")).toMatchObject({ result: {} });
    expect(proc.messages.some((m) => m.id === 1)).toBe(false);
    expect(unreadableIdErrors(proc, -32600)).toHaveLength(1);

    // Exactly LIMIT bytes of multi-byte text is fine.
    proc.write(`${pingOfSize(3, LIMIT, "é")}\n`);
    expect(await proc.response(3)).toMatchObject({ result: {} });
  });

  it("reports an oversized line that arrives in several reads exactly once and recovers at its newline", async () => {
    const proc = start();
    const big = pingOfSize(1, 3 * LIMIT);
    proc.write(big.slice(0, 200));
    await sleep(40);
    proc.write(big.slice(200, 500));
    await sleep(40);
    proc.write(big.slice(500, 700));
    await sleep(40);
    // The rest of the line, its newline and a valid request in the same write.
    proc.write(`${big.slice(700)}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`);
    expect(await proc.response(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(unreadableIdErrors(proc, -32600)).toHaveLength(1);
    expect(proc.messages.some((m) => m.id === 1)).toBe(false);
  });

  it("says id null in the error about an oversized line once 2025-06-18 is negotiated", async () => {
    const proc = start();
    await proc.initialize("2025-06-18");
    proc.write(`${pingOfSize(1, LIMIT + 1)}\n`);
    expect(await proc.request(2, "ping")).toMatchObject({ result: {} });
    expect(unreadableIdErrors(proc, -32600, null)).toHaveLength(1);
    expect(unreadableIdErrors(proc, -32600, "absent")).toHaveLength(0);
  });

  it("discards a very large line (many pipe reads) whole with one error", async () => {
    const proc = start();
    proc.write(`${pingOfSize(1, 1024 * 1024)}\n`);
    expect(await proc.request(2, "ping")).toMatchObject({ result: {} });
    expect(unreadableIdErrors(proc, -32600)).toHaveLength(1);
    expect(proc.messages).toHaveLength(2);
  });
});

describe("stdio server transport: framing", () => {
  it("reassembles a message split across writes, even inside a multi-byte character", async () => {
    const proc = start();
    await proc.initialize();
    const text = "héllo wörld 😀 ✓";
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text } } })}\n`,
    );
    // Cut inside "é" (2 bytes) and inside "😀" (4 bytes).
    const e = line.indexOf(Buffer.from("é")) + 1;
    const emoji = line.indexOf(Buffer.from("😀")) + 2;
    for (const part of [line.subarray(0, e), line.subarray(e, emoji), line.subarray(emoji)]) {
      proc.write(part);
      await sleep(30);
    }
    const response = await proc.response(7);
    expect(response.result).toMatchObject({ content: [{ type: "text", text }] });
  });

  it("answers several messages that arrive in one write, in order, and ignores blank lines", async () => {
    const proc = start();
    const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
    proc.write(`${ping(1)}\n\n   \n${ping(2)}\n${ping(3)}\n`);
    await proc.response(3);
    expect(proc.messages.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it("answers bad JSON with -32700 and the next line in the same write still works", async () => {
    const proc = start();
    proc.write(
      `{"jsonrpc":"2.0","id":1,"method":"ping"\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`,
    );
    expect(await proc.response(2)).toMatchObject({ result: {} });
    expect(unreadableIdErrors(proc, -32700)).toHaveLength(1);
    expect(proc.messages).toHaveLength(2);
  });

  it("exits with code 0 soon after stdin ends", async () => {
    const proc = start();
    await proc.request(1, "ping");
    proc.endInput();
    expect(await proc.waitExit(3000)).toEqual({ code: 0, signal: null });
  });
});
