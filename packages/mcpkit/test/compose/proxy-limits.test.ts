import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createProxy, MirrorLimitError } from "../../src/compose/index.js";
import { streamableHttpClientTransport } from "../../src/transports/streamable-http/client/index.js";
import { callerOf, later, scriptedUpstream } from "./helpers.js";

/** Upstreams that are hostile or broken: the proxy stays bounded, and its callers learn nothing of the upstream's address. */

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("mirroring a hostile upstream's lists", () => {
  it("refuses a list that pages forever, after mirror.maxPages pages", async () => {
    const upstream = scriptedUpstream({ tools: {} }, (_method, params) => {
      const n = Number(params.cursor ?? 0);
      return { tools: [tool(`t${n}`)], nextCursor: String(n + 1) };
    });
    const failed = await createProxy(upstream.transport).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(MirrorLimitError);
    expect((failed as Error).message).toMatch(/tools list is more than this proxy mirrors: more than 100 pages/);
    expect(upstream.count("tools/list")).toBe(100);
  });

  it("refuses a list with more items, or more bytes, than mirror.maxItems and mirror.maxBytes", async () => {
    const many = scriptedUpstream({ tools: {} }, () => ({
      tools: Array.from({ length: 11 }, (_, i) => tool(`t${i}`)),
    }));
    await expect(createProxy(many.transport, { mirror: { maxItems: 10 } })).rejects.toThrow(
      "more than 10 items (the proxy's mirror.maxItems option)",
    );
    const big = scriptedUpstream({ tools: {} }, () => ({ tools: [{ ...tool("t"), description: "x".repeat(5000) }] }));
    await expect(createProxy(big.transport, { mirror: { maxBytes: 4096 } })).rejects.toThrow(
      "more than 4096 bytes (the proxy's mirror.maxBytes option)",
    );
  });

  it("refuses a list that takes longer than mirror.timeoutMs to read", async () => {
    const silent = scriptedUpstream({ tools: {} }, () => new Promise<object>(() => {}));
    await expect(createProxy(silent.transport, { mirror: { timeoutMs: 100 } })).rejects.toThrow(
      "reading it took longer than 100 ms (the proxy's mirror.timeoutMs option)",
    );
  });

  it("keeps what it mirrored when a later reading is over a limit, and reports it", async () => {
    let tools = [tool("a")];
    const upstream = scriptedUpstream({ tools: { listChanged: true } }, () => ({ tools }));
    const errors: unknown[] = [];
    const proxy = await createProxy(upstream.transport, { mirror: { maxItems: 2 }, onError: (e) => errors.push(e) });
    later(() => proxy.close());
    tools = [tool("a"), tool("b"), tool("c")];
    upstream.notify("notifications/tools/list_changed");
    await expect.poll(() => errors).toEqual([expect.any(MirrorLimitError)]);
    const { client } = await callerOf(proxy);
    expect((await client.tools()).map((t) => t.name)).toEqual(["a"]);
  });

  it("reads a list once more after a storm of list_changed, not once per notification", async () => {
    let release!: () => void;
    let held: Promise<void> | undefined;
    const upstream = scriptedUpstream({ tools: { listChanged: true } }, async () => {
      await held;
      return { tools: [tool("a")] };
    });
    const proxy = await createProxy(upstream.transport);
    later(() => proxy.close());
    expect(upstream.count("tools/list")).toBe(1);
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (let i = 0; i < 1000; i++) upstream.notify("notifications/tools/list_changed");
    // The first notification started a reading, held until released; the other 999 wait for one more.
    await expect.poll(() => upstream.count("tools/list")).toBe(2);
    release();
    await expect.poll(() => upstream.count("tools/list")).toBe(3);
    await proxy.refresh();
    expect(upstream.count("tools/list")).toBe(4);
  });
});

describe("an upstream's failures, as the proxy's callers see them", () => {
  it("says what went wrong without the upstream's address or what its error page said", async () => {
    // A 2025-11-25 server over HTTP whose tools/call fails with a 502 naming an internal host.
    const http = createHttpServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      const message = body ? (JSON.parse(body) as { id?: number; method?: string }) : {};
      if (message.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s" });
        const result = {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "h", version: "1" },
        };
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
      }
      if (message.method === "tools/list") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [tool("t")] } }));
      }
      if (message.method === "tools/call")
        return void res.writeHead(502, { "content-type": "text/plain" }).end("backend 10.1.2.3:8080 refused");
      res.writeHead(message.id === undefined ? 202 : 400).end();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    later(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/secret-path/mcp`;
    const proxy = await createProxy(() =>
      streamableHttpClientTransport(url, { standaloneStream: false, legacyFallback: false }),
    );
    later(() => proxy.close());
    const { client } = await callerOf(proxy);
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: -32000,
      message: "The server behind this proxy answered with HTTP 502",
      data: { reason: "http-error", status: 502 },
    });
    const said = JSON.stringify(error) + String((error as Error).message);
    for (const secret of ["127.0.0.1", "secret-path", "10.1.2.3"]) expect(said).not.toContain(secret);
  });
});
