import { afterEach, describe, expect, it, vi } from "vitest";
import { Client } from "../../src/client/index.js";
import { McpServer } from "../../src/server/mcp-server.js";
import { createLinkedPair } from "../../src/transports/memory/linked-pair.js";
import { cleanup, complete, connectHttp, fakeServer } from "./fake-http.js";

// server/utilities/caching: a list is fresh for its ttlMs from when it arrived (0 or absent:
// fetch every time); a list_changed notification makes it stale at once. Pages count
// separately, so the whole list is fresh only while every page is.

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("list caches on a 2026-07-28 server", () => {
  it("fetches again on every call when ttlMs is 0 or absent", async () => {
    let ttl: number | undefined = 0;
    const server = await fakeServer({
      "prompts/list": () => complete({ prompts: [{ name: "p" }], ...(ttl !== undefined && { ttlMs: ttl }) }),
    });
    const { client } = await connectHttp(server.url);
    await client.prompts();
    await client.prompts();
    ttl = undefined;
    await client.prompts();
    await client.prompts();
    expect(server.of("prompts/list")).toHaveLength(4);
  });

  it("serves the cached list while ttlMs lasts, and fetches once it ran out", async () => {
    let version = 1;
    const server = await fakeServer({
      "tools/list": () => complete({ tools: [tool(`v${version}`)], ttlMs: 300, cacheScope: "public" }),
    });
    const { client } = await connectHttp(server.url);
    // The client's clock stands still until the test moves it; timers stay real.
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await client.tools()).map((t) => t.name)).toEqual(["v1"]);
    version = 2;
    expect((await client.tools()).map((t) => t.name)).toEqual(["v1"]);
    expect(server.of("tools/list")).toHaveLength(1);
    vi.setSystemTime(Date.now() + 299);
    expect((await client.tools()).map((t) => t.name)).toEqual(["v1"]);
    vi.setSystemTime(Date.now() + 2);
    expect((await client.tools()).map((t) => t.name)).toEqual(["v2"]);
    expect(server.of("tools/list")).toHaveLength(2);
  });

  it("is as fresh as its stalest page", async () => {
    const server = await fakeServer({
      "resources/list": (params) =>
        params.cursor === undefined
          ? complete({ resources: [{ uri: "a:1", name: "1" }], nextCursor: "c2", ttlMs: 60_000 })
          : complete({ resources: [{ uri: "a:2", name: "2" }], ttlMs: 0 }),
    });
    const { client } = await connectHttp(server.url);
    expect(await client.resources()).toHaveLength(2);
    await client.resources();
    // The second page's ttlMs of 0 makes the list stale; it is fetched from the start again.
    expect(server.of("resources/list").map((e) => e.params.cursor)).toEqual([undefined, "c2", undefined, "c2"]);
  });

  it("shares one fetch between callers that come while it runs", async () => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const server = await fakeServer({
      "tools/list": async () => {
        received();
        await answered;
        return complete({ tools: [tool("t")], ttlMs: 0 });
      },
    });
    const { client } = await connectHttp(server.url);
    const first = client.tools();
    await arrived; // the fetch is on the wire: the next callers come while it runs
    const later = [client.tools(), client.tools()];
    answer();
    const lists = await Promise.all([first, ...later]);
    expect(lists.map((l) => l.length)).toEqual([1, 1, 1]);
    expect(server.of("tools/list")).toHaveLength(1);
  });

  it("makes a fresh list stale when a list_changed notification arrives on a listen stream", async () => {
    let version = 1;
    let push: ((message: unknown) => void) | undefined;
    const server = await fakeServer({
      "tools/list": () => complete({ tools: [tool(`v${version}`)], ttlMs: 60_000 }),
      "subscriptions/listen": (params, exchange, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        push = (message) => res.write(`data: ${JSON.stringify(message)}\n\n`);
        push({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: {
            _meta: { "io.modelcontextprotocol/subscriptionId": exchange.id },
            notifications: params.notifications,
          },
        });
        return undefined;
      },
    });
    const { client } = await connectHttp(server.url);
    const subscription = await client.listen({ toolsListChanged: true }, () => undefined);
    expect((await client.tools()).map((t) => t.name)).toEqual(["v1"]);
    version = 2;
    const changed = new Promise<void>((resolve) => client.on("notifications/tools/list_changed", () => resolve()));
    push?.({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id } },
    });
    await changed;
    expect((await client.tools()).map((t) => t.name)).toEqual(["v2"]);
    expect(server.of("tools/list")).toHaveLength(2);
  });
});

describe("list caches on a handshake-era server", () => {
  it("keep the list until list_changed, as before", async () => {
    const server = new McpServer({ name: "legacy", version: "1" });
    server.tool("first", {}, () => "1");
    const [clientSide, serverSide] = createLinkedPair();
    const session = await server.connect(serverSide);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    try {
      expect(client.protocolEra).toBe("legacy");
      expect((await client.tools()).map((t) => t.name)).toEqual(["first"]);
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3_600_000 }); // no ttl on this era: time alone changes nothing
      expect((await client.tools()).map((t) => t.name)).toEqual(["first"]);
      const changed = new Promise<void>((resolve) => client.on("notifications/tools/list_changed", () => resolve()));
      server.tool("second", {}, () => "2");
      await changed;
      expect((await client.tools()).map((t) => t.name)).toEqual(["first", "second"]);
    } finally {
      await client.close();
      await session.closed;
    }
  });
});
