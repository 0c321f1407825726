/**
 * `mcpkit serve proxy --port` in front of a server that keeps a session per connection, for
 * clients that never DELETE their sessions (the SDKs, the Inspector's CLI): at most
 * --max-upstreams processes; at the cap, the least recently used idle one is stopped and
 * its session answers 404 (its client starts a new one); while every one is busy, a new
 * session gets 503 with Retry-After; a process that dies under a call tells the caller why.
 */

import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive } from "../interop/helpers.js";
import { closeServed, type Served, serveHttp } from "../serve/helpers.js";

const NOTES = fileURLToPath(new URL("../gateway/fixtures/notes-server.mjs", import.meta.url));
/** A server of 2024-11-05 only: one process per client session. */
const FRONT_LEGACY_NOTES = ["--", process.execPath, NOTES, "notes", "legacy"];

afterEach(closeServed);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A client session spoken by hand (as the SDKs do, never DELETEd): its status codes are the test's. */
class RawSession {
  id: string | undefined;
  private next = 1;
  constructor(private readonly url: URL) {}

  async post(message: object): Promise<Response> {
    return fetch(this.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...(this.id && { "mcp-session-id": this.id }),
      },
      body: JSON.stringify(message),
    });
  }

  /** initialize and initialized; the initialize response (503 when the proxy is full). */
  async open(): Promise<Response> {
    const response = await this.post({
      jsonrpc: "2.0",
      id: this.next++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    if (response.status !== 200) return response;
    this.id = response.headers.get("mcp-session-id") ?? undefined;
    await response.text();
    const ack = await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    await ack.text();
    return response;
  }

  /** tools/call: the HTTP status and the JSON-RPC answer (from JSON or an SSE stream). */
  async call(
    name: string,
    args: object = {},
  ): Promise<{ status: number; answer: Record<string, unknown> | undefined }> {
    const response = await this.post({
      jsonrpc: "2.0",
      id: this.next++,
      method: "tools/call",
      params: { name, arguments: args },
    });
    const text = await response.text();
    const data = text.startsWith("{")
      ? text
      : text
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .find((d) => d.includes('"id"'));
    return { status: response.status, answer: data ? (JSON.parse(data) as Record<string, unknown>) : undefined };
  }
}

const textOf = (answer: Record<string, unknown> | undefined) =>
  ((answer?.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text ?? "") as string;

async function proxy(args: string[] = []): Promise<Served> {
  // Three processes: the one that reads the lists, and two for sessions.
  return serveHttp("proxy", ["--max-upstreams", "3", ...args, ...FRONT_LEGACY_NOTES]);
}

/** The proxy said `text` on stderr, in one line: an event of its work, not a stack trace of mcpkit's. */
async function printed(served: Served, text: string): Promise<void> {
  await expect.poll(() => served.stderr(), { timeout: 10_000 }).toContain(text);
  expect(served.stderr()).not.toMatch(/^\s+at /m);
}

describe("mcpkit serve proxy --max-upstreams, for clients that never end their sessions", () => {
  it("stops the least recently used idle process for a new session; that session answers 404", async () => {
    const served = await proxy();
    const [a, b, c] = [new RawSession(served.url), new RawSession(served.url), new RawSession(served.url)];
    expect((await a.open()).status).toBe(200);
    const pidA = Number(textOf((await a.call("pid")).answer));
    expect((await b.open()).status).toBe(200);
    const pidB = Number(textOf((await b.call("pid")).answer));
    expect(pidA).not.toBe(pidB);

    // A third session: A's process, used longest ago and idle, makes room.
    expect((await c.open()).status).toBe(200);
    const pidC = Number(textOf((await c.call("pid")).answer));
    await expect.poll(() => isAlive(pidA), { timeout: 10_000 }).toBe(false);
    expect(isAlive(pidB)).toBe(true);
    expect(isAlive(pidC)).toBe(true);
    expect((await a.call("pid")).status).toBe(404);
    expect(textOf((await b.call("list_notes")).answer)).toBe("first note");
    await printed(served, "to make room (at most 2 for sessions at once, maxUpstreams 3");

    // A's client starts a new session, as the spec says, and is served.
    const again = new RawSession(served.url);
    expect((await again.open()).status).toBe(200);
    expect(textOf((await again.call("list_notes")).answer)).toBe("first note");
  });

  it("answers 503 with Retry-After while every process is busy, and serves once one is idle", async () => {
    const served = await proxy();
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-proxy-cap-"));
    dirs.push(dir);
    const release = join(dir, "release");
    const [a, b, c] = [new RawSession(served.url), new RawSession(served.url), new RawSession(served.url)];
    await a.open();
    await b.open();
    const inFlight = [a.call("block", { file: release }), b.call("block", { file: release })];
    // Both calls reached their processes (each says so on the stderr the proxy passes through).
    await expect.poll(() => served.stderr().split("block called").length - 1, { timeout: 10_000 }).toBe(2);

    const refused = await c.open();
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(JSON.stringify(await refused.json())).toMatch(
      /All 2 of this proxy's upstream connections for client sessions are busy/,
    );

    writeFileSync(release, "");
    for (const call of await Promise.all(inFlight)) expect(textOf(call.answer)).toBe("released");
    expect(existsSync(release)).toBe(true);
    expect((await c.open()).status).toBe(200);
    expect(textOf((await c.call("list_notes")).answer)).toBe("first note");
  });

  it("tells the caller of a process that died under its call why, and says so on stderr", async () => {
    const served = await proxy();
    const session = new RawSession(served.url);
    await session.open();
    const pid = Number(textOf((await session.call("pid")).answer));
    const hanging = session.call("hang");
    await expect.poll(() => served.stderr(), { timeout: 10_000 }).toContain("hang called");
    process.kill(pid, "SIGKILL");
    const { answer } = await hanging;
    expect(answer?.error).toMatchObject({
      code: -32000,
      message: "The server behind this proxy stopped: it was killed by SIGKILL",
    });
    await printed(
      served,
      "The server behind a client session stopped: it was killed by SIGKILL; that session is closed",
    );
    // The session went with its process: its client starts a new one.
    await expect.poll(async () => (await session.call("pid")).status, { timeout: 10_000 }).toBe(404);
  });

  it("ends a session left idle after 5 minutes by default (its process with it)", async () => {
    const served = await proxy(["--idle-timeout", "1s"]);
    const session = new RawSession(served.url);
    await session.open();
    const pid = Number(textOf((await session.call("pid")).answer));
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
    expect((await session.call("pid")).status).toBe(404);
  });
});
