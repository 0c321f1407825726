import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { protectedResource } from "../../src/auth/server/index.js";
import type { StreamableHttpOptions } from "../../src/endpoints/http/index.js";
import { createServer, type EventBus, InMemoryEventBus, InMemorySessionStore } from "../../src/server/index.js";
import type { SessionStore } from "../../src/server/session-store.js";
import { InMemoryEventStore } from "../../src/transports/streamable-http/server/event-store.js";
import { messagesOf, serveHttp, sessionHeaders, sseEvents } from "./helpers.js";

/** One node's server: every node serves the same definition. */
function definition(bus: EventBus) {
  const server = createServer({ name: "node", version: "1", eventBus: bus, onError: (e) => reported.push(e) });
  server.tool("speak", {}, async (_args, ctx) => {
    ctx.log("info", "quiet");
    ctx.log("error", "loud");
    return JSON.stringify({
      revision: ctx.revision,
      client: ctx.client.info,
      capabilities: ctx.client.capabilities,
      session: ctx.sessionId,
    });
  });
  server.tool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Name?", schema: z.object({ name: z.string() }) });
    return `hello ${(answer.content as { name: string }).name}`;
  });
  server.tool("sample", {}, async (_args, ctx) => {
    const answer = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "Hi?" } }],
      maxTokens: 5,
    });
    return `model said ${(answer.content as { text: string }).text}`;
  });
  server.tool("wait", {}, async (_args, ctx) => {
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    cancelled.push(ctx.requestId);
    return "cancelled";
  });
  server.tool("linger", {}, async (_args, ctx) => {
    ctx.progress(1, 2);
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
    return "never answered";
  });
  server.resource("file:///watched.txt", { name: "watched" }, () => "contents");
  for (let n = 0; n < 5; n++) server.resource(`file:///watched/${n}`, { name: `watched-${n}` }, () => `${n}`);
  return server;
}

type Node = Awaited<ReturnType<typeof serveHttp>>;
let nodes: Node[] = [];
let reported: unknown[] = [];
const cancelled: unknown[] = [];
afterEach(async () => {
  await Promise.all(nodes.map((n) => n.close()));
  nodes = [];
  reported = [];
});

/** Two nodes sharing one session store, one event store and one bus, as a cluster shares Redis. */
async function cluster(options: StreamableHttpOptions & { sessionStore?: SessionStore } = {}) {
  const shared = {
    sessionStore: options.sessionStore ?? new InMemorySessionStore(),
    eventStore: new InMemoryEventStore(),
    bus: new InMemoryEventBus(),
  };
  const make = () =>
    serveHttp(definition(shared.bus), {
      drainTimeoutMs: 100,
      ...options,
      sessionStore: shared.sessionStore,
      eventStore: shared.eventStore,
    });
  nodes = [await make(), await make()];
  return { a: nodes[0] as Node, b: nodes[1] as Node, ...shared };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

const CAPS = { elicitation: {}, roots: { listChanged: true } };

describe("Streamable HTTP with a shared session store: any node serves any session", () => {
  it("serves on node B a session opened on node A, with its revision, client and log level", async () => {
    const { a, b } = await cluster();
    const session = await a.open(CAPS, "2025-06-18");
    const headers = sessionHeaders(session, "2025-06-18");
    const set = await b.post(
      { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "error" } },
      headers,
    );
    expect(await set.json()).toMatchObject({ id: 2, result: {} });

    // Back on A, which must have taken B's change of log level.
    const response = await a.post(call(3, "speak"), headers);
    const messages = messagesOf(await collect(response));
    const logs = messages.filter((m) => m.method === "notifications/message");
    expect(logs.map((m) => (m.params as { data: unknown }).data)).toEqual(["loud"]);
    const result = messages.find((m) => m.id === 3) as { result: { content: { text: string }[] } };
    expect(JSON.parse(result.result.content[0]?.text ?? "")).toEqual({
      revision: "2025-06-18",
      client: { name: "raw-http", version: "1" },
      capabilities: CAPS,
      session,
    });
    expect(a.handler.sessionCount).toBe(1);
    expect(b.handler.sessionCount).toBe(1);
  });

  it("ends the session on every node when any node gets the DELETE", async () => {
    const { a, b, sessionStore, eventStore } = await cluster();
    const session = await a.open();
    const headers = sessionHeaders(session);
    expect((await b.post(call(2, "speak"), headers)).status).toBe(200);
    const { close } = await openGetStream(a, headers); // A stored the session's GET stream
    expect(eventStore.size).toBe(2); // and B stored the SSE answer of the call
    const deleted = await fetch(b.url, { method: "DELETE", headers });
    expect(deleted.status).toBe(204);
    close();
    // Ended everywhere, so its stored streams are dropped, whichever node wrote them.
    await waitUntil(async () => eventStore.size === 0);
    expect(await sessionStore.load(session)).toBeUndefined();
    expect(a.handler.sessionCount).toBe(0);
    const after = await a.post(call(3, "speak"), headers);
    expect(after.status).toBe(404);
  });

  it("an id no node opened is unknown everywhere", async () => {
    const { b } = await cluster();
    const response = await b.post(call(1, "speak"), sessionHeaders("made-up-session-id"));
    expect(response.status).toBe(404);
    expect(b.handler.sessionCount).toBe(0);
  });

  it("an idle session expires in the store: no node serves it any more", async () => {
    const { a, b, sessionStore } = await cluster({ idleTimeoutMs: 300 });
    const session = await a.open();
    expect(await sessionStore.load(session)).toBeDefined();
    const deadline = Date.now() + 5000;
    while ((await sessionStore.load(session)) !== undefined && Date.now() < deadline) await sleep(25);
    expect(await sessionStore.load(session)).toBeUndefined();
    expect((await b.post(call(2, "speak"), sessionHeaders(session))).status).toBe(404);
    expect((await a.post(call(3, "speak"), sessionHeaders(session))).status).toBe(404);
  });

  it("a subscription made through node B is honoured by the GET stream on node A", async () => {
    const { a, b, bus } = await cluster();
    const session = await a.open();
    const headers = sessionHeaders(session);
    const { events, close } = await openGetStream(a, headers);
    const subscribed = await b.post(
      { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "file:///watched.txt" } },
      headers,
    );
    expect(await subscribed.json()).toMatchObject({ id: 2, result: {} });
    // A is told of B's save and reloads (an update meanwhile waits for it: the next test).
    await waitUntil(async () => (await a.post({ jsonrpc: "2.0", id: 3, method: "ping" }, headers)).ok);
    bus.publish({ type: "resource_updated", uri: "file:///other.txt" });
    bus.publish({ type: "resource_updated", uri: "file:///watched.txt" });
    const next = (await events.next()).value as { data: string };
    expect(JSON.parse(next.data)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "file:///watched.txt" },
    });
    close();
  });

  it("an update that reaches node A while it reloads the session B just subscribed is delivered, not filtered by the old record", async () => {
    // A store whose loads can be held: node A's reload after B's save waits at the gate.
    const store = new InMemorySessionStore();
    let gate: Promise<void> | undefined;
    let open = () => {};
    let held = 0;
    const load = store.load.bind(store);
    store.load = async (id) => {
      if (gate) {
        held++;
        await gate;
      }
      return load(id);
    };
    const { a, b, bus } = await cluster({ sessionStore: store });
    const session = await a.open();
    const headers = sessionHeaders(session);
    const { events, close } = await openGetStream(a, headers);
    // B takes the session (its own load) and subscribes to a marker A learns of at once.
    const marker = { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "file:///watched/0" } };
    expect(await (await b.post(marker, headers)).json()).toMatchObject({ id: 2, result: {} });
    await waitUntil(async () => (await a.post({ jsonrpc: "2.0", id: 3, method: "ping" }, headers)).ok);

    gate = new Promise((resolve) => {
      open = resolve;
    });
    const subscribe = { jsonrpc: "2.0", id: 4, method: "resources/subscribe", params: { uri: "file:///watched.txt" } };
    expect(await (await b.post(subscribe, headers)).json()).toMatchObject({ id: 4, result: {} });
    await waitUntil(async () => held > 0); // A is reloading the record B saved
    bus.publish({ type: "resource_updated", uri: "file:///watched.txt" });
    gate = undefined;
    open();
    bus.publish({ type: "resource_updated", uri: "file:///watched/0" });

    const uris: unknown[] = [];
    for (let n = 0; n < 2; n++)
      uris.push(JSON.parse(((await events.next()).value as { data: string }).data).params.uri);
    expect(uris.sort()).toEqual(["file:///watched.txt", "file:///watched/0"]);
    close();
  });

  it("resumes on node B the GET stream node A held, after A has gone: nothing lost, nothing twice", async () => {
    const { a, b, bus } = await cluster();
    const session = await a.open();
    const headers = sessionHeaders(session);
    const uri = (n: number) => `file:///watched/${n}`;
    for (let n = 0; n < 5; n++) {
      const r = await b.post(
        { jsonrpc: "2.0", id: 10 + n, method: "resources/subscribe", params: { uri: uri(n) } },
        headers,
      );
      expect(await r.json()).toMatchObject({ result: {} });
    }
    const update = (n: number) => bus.publish({ type: "resource_updated", uri: uri(n) });
    const uriOf = (e: { data: string }) => (JSON.parse(e.data) as { params: { uri: string } }).params.uri;
    const leaving = new AbortController();
    const first = await fetch(a.url, { headers: { ...headers, accept: "text/event-stream" }, signal: leaving.signal });
    const firstEvents = sseEvents(first);
    await firstEvents.next(); // priming
    update(0);
    const seen = (await firstEvents.next()).value as { id: string; data: string };
    const got = [uriOf(seen)];
    leaving.abort();
    // Node A goes away; published while the client is between nodes, the updates are
    // stored by B's copy of the session on the stream all nodes share.
    await a.close();
    nodes = [b];
    update(1);
    update(2);
    const resuming = new AbortController();
    const resumed = await fetch(b.url, {
      headers: { ...headers, accept: "text/event-stream", "last-event-id": seen.id },
      signal: resuming.signal,
    });
    expect(resumed.status).toBe(200);
    const resumedEvents = sseEvents(resumed);
    const firstResumed = (await resumedEvents.next()).value as { data: string };
    got.push(uriOf(firstResumed));
    // After the resumption, B's copy of the session carries the stream on.
    update(3);
    update(4);
    while (got.at(-1) !== uri(4)) got.push(uriOf((await resumedEvents.next()).value as { data: string }));
    resuming.abort();
    expect(got).toEqual([0, 1, 2, 3, 4].map(uri));
  });

  it("passes the client's answer to an elicitation to the node that asked, wherever it lands", async () => {
    const { a, b } = await cluster();
    const session = await a.open({ elicitation: {} });
    const headers = sessionHeaders(session);
    const response = await a.post(call(2, "ask"), headers);
    const events = sseEvents(response);
    let asked: { id: unknown; method: string } | undefined;
    while (!asked) {
      const e = (await events.next()).value as { data: string };
      if (e.data) asked = JSON.parse(e.data);
    }
    expect(asked.method).toBe("elicitation/create");
    expect(String(asked.id)).toMatch(/^[\w-]+\.\d+$/); // the asking node's name, then a counter
    const answer = await b.post(
      { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ada" } } },
      headers,
    );
    expect(answer.status).toBe(202);
    let result: { id: number; result: { content: { text: string }[] } } | undefined;
    while (!result) {
      const e = (await events.next()).value as { data: string };
      if (e.data && JSON.parse(e.data).id === 2) result = JSON.parse(e.data);
    }
    expect(result.result.content[0]?.text).toBe("hello Ada");
  });

  it("passes on the answer in a batch (2025-03-26) and handles the rest of the batch where it landed", async () => {
    const { a, b } = await cluster();
    const session = await a.open({ sampling: {} }, "2025-03-26");
    const headers = sessionHeaders(session, "2025-03-26");
    const response = await a.post(call(2, "sample"), headers);
    const events = sseEvents(response);
    let asked: { id: unknown; method: string } | undefined;
    while (!asked) {
      const e = (await events.next()).value as { data: string };
      if (e.data) asked = JSON.parse(e.data);
    }
    expect(asked.method).toBe("sampling/createMessage");
    const batch = await b.post(
      [
        {
          jsonrpc: "2.0",
          id: asked.id,
          result: { role: "assistant", content: { type: "text", text: "hello" }, model: "m" },
        },
        { jsonrpc: "2.0", id: 9, method: "ping" },
      ],
      headers,
    );
    // B answers the ping itself, as a batch of one.
    expect(await batch.json()).toEqual([{ jsonrpc: "2.0", id: 9, result: {} }]);
    let result: { id: number; result: { content: { text: string }[] } } | undefined;
    while (!result) {
      const e = (await events.next()).value as { data: string };
      if (e.data && JSON.parse(e.data).id === 2) result = JSON.parse(e.data);
    }
    expect(result.result.content[0]?.text).toBe("model said hello");
  });

  it("passes a cancellation to the node running the request", async () => {
    const { a, b } = await cluster();
    const session = await a.open();
    const headers = sessionHeaders(session);
    const running = a.post(call(7, "wait"), headers);
    await waitUntil(async () => a.handler.sessionCount === 1);
    const sent = await b.post(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "changed my mind" } },
      headers,
    );
    expect(sent.status).toBe(202);
    await waitUntil(async () => cancelled.includes(7));
    void running.then((r) => r.body?.cancel()).catch(() => {});
  });

  it("tells a client resuming a request whose node died to send it again, instead of leaving it polling", async () => {
    const { a, b } = await cluster({ heartbeatMs: 50 });
    const session = await a.open();
    const headers = sessionHeaders(session);
    const running = await a.post(
      {
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "linger", arguments: {}, _meta: { progressToken: "t" } },
      },
      headers,
    );
    const events = sseEvents(running);
    let lastId: string | undefined;
    while (!lastId) {
      const e = (await events.next()).value as { id?: string; data: string };
      if (e.data) lastId = e.id;
    }
    const resume = () =>
      fetch(b.url, { headers: { ...headers, accept: "text/event-stream", "last-event-id": lastId as string } });
    // While A lives, B replays what is stored and lets the client poll again.
    const polled = await resume();
    expect(polled.status).toBe(200);
    await polled.text();
    await a.close(); // A stops: no more heartbeats
    nodes = [b];
    await waitUntil(async () => {
      const r = await resume();
      if (r.status !== 410) {
        await r.text();
        return false;
      }
      expect(await r.json()).toMatchObject({
        error: { message: "The server node running this request stopped before answering it; send the request again" },
      });
      return true;
    });
  });

  it("serves a session on another node to the principal that opened it only", async () => {
    const auth = protectedResource({
      resource: "http://127.0.0.1/mcp",
      authorizationServers: ["https://auth.example"],
      // Test tokens: the token is the subject.
      verifier: async (token) => ({ token, subject: token, scopes: [], claims: { sub: token } }),
    });
    const { a, b } = await cluster({ auth });
    const as = (who: string) => ({ authorization: `Bearer ${who}` });
    const opened = await a.post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      },
      as("alice"),
    );
    const session = opened.headers.get("mcp-session-id") as string;
    expect(session).toBeTruthy();
    await opened.text();
    const headers = sessionHeaders(session);
    // Bob holds Alice's session id: on the node that never saw it, it is as unknown as a made-up one.
    const stolen = await b.post({ jsonrpc: "2.0", id: 2, method: "ping" }, { ...headers, ...as("bob") });
    expect(stolen.status).toBe(404);
    const stolenGet = await fetch(b.url, { headers: { ...headers, ...as("bob"), accept: "text/event-stream" } });
    expect(stolenGet.status).toBe(404);
    const own = await b.post({ jsonrpc: "2.0", id: 3, method: "ping" }, { ...headers, ...as("alice") });
    expect(await own.json()).toMatchObject({ id: 3, result: {} });
    // And Bob is refused on the node that now holds a copy too.
    expect((await b.post({ jsonrpc: "2.0", id: 4, method: "ping" }, { ...headers, ...as("bob") })).status).toBe(404);
  });

  it("refuses to open a session it could not store, so no node serves state others cannot see", async () => {
    const store = new InMemorySessionStore();
    const failing: SessionStore = {
      save: () => Promise.reject(new Error("store unreachable")),
      load: (id) => store.load(id),
      touch: (id, ttl) => store.touch(id, ttl),
      delete: (id) => store.delete(id),
      relay: (message) => store.relay(message),
      heartbeat: (node, ttl) => store.heartbeat(node, ttl),
      alive: (node) => store.alive(node),
      watch: (listener) => store.watch(listener),
    };
    const { a } = await cluster({ sessionStore: failing });
    const response = await a.post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(a.handler.sessionCount).toBe(0);
    expect(reported.map(String)).toEqual(["Error: store unreachable"]);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens the session's GET stream on a node and reads its priming event. */
async function openGetStream(node: Node, headers: Record<string, string>) {
  const getting = new AbortController();
  const stream = await fetch(node.url, {
    headers: { ...headers, accept: "text/event-stream" },
    signal: getting.signal,
  });
  const events = sseEvents(stream);
  expect((await events.next()).value).toMatchObject({ data: "" }); // priming
  return { events, close: () => getting.abort() };
}

async function waitUntil(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

async function collect(response: Response) {
  if (response.headers.get("content-type")?.includes("application/json")) {
    return [{ data: await response.text() }];
  }
  const events = [];
  for await (const e of sseEvents(response)) events.push(e);
  return events;
}
