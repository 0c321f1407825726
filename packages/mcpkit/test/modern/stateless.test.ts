import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../../src/server/index.js";
import { MODERN, meta, modernPeer } from "./helpers.js";

function server() {
  const s = createServer({
    name: "modern",
    version: "2.0.0",
    instructions: "Be stateless.",
    caching: { default: { ttlMs: 5000 }, reads: { ttlMs: 0, scope: "private" } },
  });
  s.tool("echo", { input: z.object({ text: z.string() }) }, ({ text }, ctx) => {
    ctx.log("debug", "debug detail");
    ctx.log("warning", `echoing ${text}`);
    ctx.progress(1, 1);
    return `${text} ${JSON.stringify(ctx.trace)}`;
  });
  s.resource("test://doc", { name: "doc", cache: { ttlMs: 60_000, scope: "public" } }, () => "the doc");
  s.resource("test://plain", { name: "plain" }, () => "plain");
  s.prompt("p", {}, () => "prompt");
  return s;
}

describe("2026-07-28: requests without a handshake", () => {
  it("answers server/discover with versions, capabilities, instructions, serverInfo and caching hints", async () => {
    const { call } = await modernPeer(server());
    const response = await call("server/discover");
    expect(response.result).toEqual({
      resultType: "complete",
      supportedVersions: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
      capabilities: expect.objectContaining({ tools: { listChanged: true }, prompts: { listChanged: true } }),
      instructions: "Be stateless.",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "2.0.0" } },
      ttlMs: 5000,
      cacheScope: "public",
    });
  });

  it("puts resultType, serverInfo and (where cacheable) ttlMs and cacheScope on every result", async () => {
    const { call } = await modernPeer(server());
    const list = await call("tools/list");
    expect(list.result).toMatchObject({
      resultType: "complete",
      ttlMs: 5000,
      cacheScope: "public",
      tools: [{ name: "echo" }],
    });
    const doc = await call("resources/read", { uri: "test://doc" });
    expect(doc.result).toMatchObject({ ttlMs: 60_000, cacheScope: "public", contents: [{ text: "the doc" }] });
    const plain = await call("resources/read", { uri: "test://plain" });
    expect(plain.result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    const toolCall = await call("tools/call", { name: "echo", arguments: { text: "hi" } });
    expect(toolCall.result).toMatchObject({
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern" } },
    });
    expect(toolCall.result).not.toHaveProperty("ttlMs");
  });

  it("rejects a missing or incomplete _meta with -32602", async () => {
    const { call } = await modernPeer(server());
    // Without any version in _meta the connection has no era yet: initialize first, or give _meta.
    const noCaps = await call("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } });
    expect(noCaps.error).toMatchObject({ code: -32602, message: expect.stringContaining("clientCapabilities") });
    const badLevel = await call("tools/list", { _meta: meta({}, { "io.modelcontextprotocol/logLevel": "loud" }) });
    expect(badLevel.error).toMatchObject({ code: -32602 });
  });

  it("answers an unsupported version with -32022, listing what it supports and echoing the request", async () => {
    const { call } = await modernPeer(server());
    const response = await call("tools/list", {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2099-01-01",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    });
    expect(response.error).toMatchObject({
      code: -32022,
      data: { requested: "2099-01-01", supported: expect.arrayContaining([MODERN]) },
    });
  });

  it("answers removed and unknown methods with -32601", async () => {
    const { call } = await modernPeer(server());
    for (const method of [
      "initialize",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
      "nope/nope",
    ]) {
      expect((await call(method)).error, method).toMatchObject({ code: -32601 });
    }
  });

  it("answers an unknown resource with -32602 and the uri in data", async () => {
    const { call } = await modernPeer(server());
    expect((await call("resources/read", { uri: "test://missing" })).error).toEqual({
      code: -32602,
      message: "Resource not found: test://missing",
      data: { uri: "test://missing" },
    });
  });

  it("sends logs only when the request's _meta names a level, and then only at or above it", async () => {
    const { call, peer } = await modernPeer(server());
    // A request's notifications come before its response.
    await call("tools/call", { name: "echo", arguments: { text: "quiet" } });
    expect(peer.received.filter((m) => "method" in m && m.method === "notifications/message")).toEqual([]);
    await call(
      "tools/call",
      { name: "echo", arguments: { text: "loud" } },
      {},
      { "io.modelcontextprotocol/logLevel": "info" },
    );
    const logs = peer.received.filter((m) => "method" in m && m.method === "notifications/message");
    expect(logs.map((m) => (m as unknown as { params: { level: string } }).params.level)).toEqual(["warning"]);
  });

  it("sends progress for a progressToken and passes trace context to the handler", async () => {
    const { call, peer } = await modernPeer(server());
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    const response = await call(
      "tools/call",
      { name: "echo", arguments: { text: "t" } },
      {},
      { progressToken: "tok", traceparent, baggage: "k=v" },
    );
    expect(response.result?.content).toEqual([
      { type: "text", text: `t {"traceparent":"${traceparent}","baggage":"k=v"}` },
    ]);
    expect(peer.received.find((m) => "method" in m && m.method === "notifications/progress")).toMatchObject({
      params: { progressToken: "tok", progress: 1, total: 1 },
    });
  });

  it("serves both eras on one connection: initialize opens the legacy era, _meta requests stay stateless", async () => {
    const { call, peer } = await modernPeer(server());
    const init = await peer.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "x", version: "1" },
    });
    expect(init).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
    const legacy = (await peer.request("tools/list", {})) as { result: Record<string, unknown> };
    expect(legacy.result).not.toHaveProperty("resultType");
    const modern = await call("tools/list");
    expect(modern.result).toHaveProperty("resultType", "complete");
  });
});
