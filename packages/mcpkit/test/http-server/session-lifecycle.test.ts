import { afterEach, describe, expect, it } from "vitest";
import { createServer, InMemorySessionStore, type McpServer } from "../../src/server/index.js";
import type { SessionRecord } from "../../src/server/session-store.js";
import { ACCEPT_BOTH, serveHttp, sessionHeaders } from "./helpers.js";

// The life of a session in the HTTP session table (transports §Session Management): how
// it ends (DELETE, the idle sweep, the server closing it, close() of the endpoint), what
// is saved to a shared store and when, and that an ended session is unknown on every
// method afterwards.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function lifecycleServer(): { server: McpServer; proceed: ReturnType<typeof gate>; started: ReturnType<typeof gate> } {
  const server = createServer({ name: "lifecycle", version: "1" });
  const proceed = gate();
  const started = gate();
  server.tool("ping_me", {}, () => "pong");
  server.tool("slow", {}, async () => {
    started.open();
    await proceed.opened;
    return "finished";
  });
  return { server, proceed, started };
}

async function serve(server: McpServer, options: Parameters<typeof serveHttp>[1] = {}) {
  const http = await serveHttp(server, options);
  closers.push(http.close);
  return http;
}

const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

/** Asks until `done` says yes (the sweep runs on its own timer); gives up after 10 s. */
async function eventually(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the HTTP session table's lifecycle", () => {
  it("DELETE ends a session: afterwards its id is unknown to POST, GET and DELETE", async () => {
    const http = await serve(lifecycleServer().server);
    const id = await http.open();
    expect(http.handler.sessionCount).toBe(1);
    const deleted = await fetch(http.url, { method: "DELETE", headers: sessionHeaders(id) });
    expect(deleted.status).toBe(204);
    expect(http.handler.sessionCount).toBe(0);
    expect((await http.post(call(2, "ping_me"), sessionHeaders(id))).status).toBe(404);
    const get = await fetch(http.url, { headers: { accept: "text/event-stream", ...sessionHeaders(id) } });
    expect(get.status).toBe(404);
    expect((await fetch(http.url, { method: "DELETE", headers: sessionHeaders(id) })).status).toBe(404);
  });

  it("the idle sweep ends a session nobody used for idleTimeoutMs, and keeps one whose stream is open", async () => {
    const http = await serve(lifecycleServer().server, { idleTimeoutMs: 300 });
    const idle = await http.open();
    const streaming = await http.open();
    const stream = await fetch(http.url, { headers: { accept: ACCEPT_BOTH, ...sessionHeaders(streaming) } });
    expect(stream.status).toBe(200);
    await eventually(() => http.handler.sessionCount === 1, "the idle session to be swept");
    expect((await http.post(call(2, "ping_me"), sessionHeaders(idle))).status).toBe(404);
    const kept = await http.post(call(3, "ping_me"), sessionHeaders(streaming));
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ id: 3, result: { content: [{ text: "pong" }] } });
    await stream.body?.cancel();
  });

  it("a session the server closes is forgotten by the table: its id is then unknown", async () => {
    const { server } = lifecycleServer();
    const http = await serve(server);
    const id = await http.open();
    await Promise.all([...server.sessions].map((s) => s.close()));
    expect(http.handler.sessionCount).toBe(0);
    expect((await http.post(call(2, "ping_me"), sessionHeaders(id))).status).toBe(404);
  });

  it("close() lets a request in progress finish, refuses new sessions meanwhile, then ends every session", async () => {
    const { server, proceed, started } = lifecycleServer();
    const http = await serve(server, { drainTimeoutMs: 10_000 });
    const id = await http.open();
    const slow = http.post(call(2, "slow"), sessionHeaders(id));
    await started.opened;
    let closed = false;
    const closing = http.handler.close().then(() => {
      closed = true;
    });
    const refused = await http.post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "late", version: "1" } },
    });
    expect(refused.status).toBe(503);
    expect(closed).toBe(false);
    proceed.open();
    const answer = await slow;
    expect(await answer.json()).toMatchObject({ id: 2, result: { content: [{ text: "finished" }] } });
    await closing;
    expect(http.handler.sessionCount).toBe(0);
  });
});

describe("the session table over a shared store", () => {
  /** A store that records what is saved and deleted. */
  function recordingStore() {
    const store = new InMemorySessionStore();
    const saved: SessionRecord[] = [];
    const deleted: string[] = [];
    const save = store.save.bind(store);
    const remove = store.delete.bind(store);
    store.save = (record, ttlMs) => {
      saved.push(record);
      return save(record, ttlMs);
    };
    store.delete = (id) => {
      deleted.push(id);
      return remove(id);
    };
    return { store, saved, deleted };
  }

  it("saves a session when a request changed it, not on every request, and deletes it on DELETE", async () => {
    const { store, saved, deleted } = recordingStore();
    const http = await serve(lifecycleServer().server, { sessionStore: store });
    const id = await http.open();
    const afterOpen = saved.length;
    expect(saved.at(-1)).toMatchObject({ id, initialized: true, revision: "2025-11-25" });
    await (await http.post(call(2, "ping_me"), sessionHeaders(id))).text();
    expect(saved).toHaveLength(afterOpen);
    const level = await http.post(
      { jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "error" } },
      sessionHeaders(id),
    );
    await level.text();
    expect(saved).toHaveLength(afterOpen + 1);
    expect(saved.at(-1)).toMatchObject({ id, logLevel: "error" });
    expect((await fetch(http.url, { method: "DELETE", headers: sessionHeaders(id) })).status).toBe(204);
    expect(deleted).toEqual([id]);
    expect(await store.load(id)).toBeUndefined();
  });

  it("a node's close() leaves the sessions in the store for the other nodes", async () => {
    const { store, deleted } = recordingStore();
    const a = await serve(lifecycleServer().server, { sessionStore: store });
    const b = await serve(lifecycleServer().server, { sessionStore: store });
    const id = await a.open();
    await a.handler.close();
    expect(deleted).toEqual([]);
    const served = await b.post(call(2, "ping_me"), sessionHeaders(id));
    expect(await served.json()).toMatchObject({ id: 2, result: { content: [{ text: "pong" }] } });
  });
});
