import { describe, expect, it } from "vitest";
import type { Root } from "../../src/protocol/types/features.js";
import { createServer, type ServerSession } from "../../src/server/index.js";
import { callerOf, connectorTo, later, proxyOf } from "./helpers.js";

/**
 * A legacy upstream keeps state per connection: the roots it asks for after initialize,
 * its log messages, its subscriptions. The proxy gives each downstream session its own
 * upstream connection, so that state is that session's, and never another's.
 */

/** An upstream that asks each session's roots outside any call (as server-filesystem does) and tells them on request. */
function rootsAskingServer() {
  const learned = new Map<ServerSession, Root[]>();
  const ask = (session: ServerSession) =>
    void session.request("roots/list", {}).then(
      (r) => learned.set(session, r.roots as Root[]),
      () => learned.set(session, []),
    );
  const server = createServer({
    name: "files",
    version: "1",
    onSession: ask,
    onNotification: (n, session) => {
      if (n.method === "notifications/roots/list_changed") ask(session);
    },
  });
  server.tool(
    "allowed",
    {},
    (_args, ctx) => (learned.get(ctx.session as ServerSession) ?? []).map((r) => r.uri).join(",") || "none",
  );
  server.tool("log_later", {}, (_args, ctx) => {
    const session = ctx.session as ServerSession;
    // Outside the call: after its answer has gone.
    setImmediate(() => session.log("info", "for the caller's session"));
    return "ok";
  });
  return server;
}

const allowed = async (client: Awaited<ReturnType<typeof callerOf>>["client"]) =>
  (await client.callTool("allowed")).content[0];

describe("a legacy upstream behind the proxy, one connection per downstream session", () => {
  it("gets the roots of the session its connection serves, asked outside any call", async () => {
    const proxy = await proxyOf(rootsAskingServer());
    const ada = await callerOf(proxy, { roots: [{ uri: "file:///home/ada" }] });
    const bob = await callerOf(proxy, { roots: [{ uri: "file:///home/bob" }] });
    await expect.poll(() => allowed(ada.client)).toEqual({ type: "text", text: "file:///home/ada" });
    await expect.poll(() => allowed(bob.client)).toEqual({ type: "text", text: "file:///home/bob" });
    // A change of roots reaches that session's connection, which asks again.
    ada.client.setRoots([{ uri: "file:///projects" }]);
    await expect.poll(() => allowed(ada.client)).toEqual({ type: "text", text: "file:///projects" });
    expect(await allowed(bob.client)).toEqual({ type: "text", text: "file:///home/bob" });
  });

  it("passes a log message sent outside any call to the session it belongs to, and no other", async () => {
    const proxy = await proxyOf(rootsAskingServer());
    const logs = { ada: [] as unknown[], bob: [] as unknown[] };
    const ada = await callerOf(proxy);
    const bob = await callerOf(proxy);
    ada.client.on("notifications/message", (p) => logs.ada.push(p.data));
    bob.client.on("notifications/message", (p) => logs.bob.push(p.data));
    await ada.client.setLogLevel("info");
    await bob.client.setLogLevel("info");
    await ada.client.callTool("log_later");
    await expect.poll(() => logs.ada).toEqual(["for the caller's session"]);
    // A round trip on bob's session: had the log been sent to it, it would be here by now.
    await bob.client.callTool("allowed");
    expect(logs.bob).toEqual([]);
  });

  it("closes a session's upstream connection when the session closes", async () => {
    const server = rootsAskingServer();
    const { connect, sessions } = connectorTo(server);
    const { createProxy } = await import("../../src/compose/index.js");
    const proxy = await createProxy(connect);
    later(() => proxy.close());
    const ada = await callerOf(proxy);
    await ada.client.callTool("allowed");
    // The shared connection (lists) and ada's.
    expect(sessions).toHaveLength(2);
    const adas = sessions[1] as ServerSession;
    await ada.close();
    await adas.closed;
  });

  it("shows each session the tools its own connection is offered (a server offers some by the client's capabilities)", async () => {
    const server = rootsAskingServer();
    server.tool("summarize", { visible: (viewer) => viewer.clientCapabilities.sampling !== undefined }, () => "ok");
    const proxy = await proxyOf(server);
    const sampling = () => ({ role: "assistant" as const, content: { type: "text" as const, text: "" }, model: "m" });
    const withSampling = await callerOf(proxy, { sampling });
    const without = await callerOf(proxy);
    const names = async (c: typeof without) => (await c.client.tools()).map((t) => t.name);
    await expect.poll(() => names(withSampling)).toContain("summarize");
    await expect.poll(() => names(without)).toEqual(["allowed", "log_later"]);
  });
});

describe("a legacy upstream behind the proxy, one connection shared by every caller", () => {
  it("has no roots outside a call", async () => {
    const proxy = await proxyOf(rootsAskingServer(), { upstreamSessions: "shared" });
    const ada = await callerOf(proxy, { roots: [{ uri: "file:///home/ada" }] });
    await callerOf(proxy, { roots: [{ uri: "file:///home/bob" }] });
    // Asked once, after initialize, when no caller could be told apart: the documented answer is none.
    expect(await allowed(ada.client)).toEqual({ type: "text", text: "none" });
  });

  it("passes a log sent outside any call to the call in progress, and to no one when calls of two sessions run or none does", async () => {
    const server = rootsAskingServer();
    let entered = 0;
    const arrivals: (() => void)[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.tool("hold", {}, async () => {
      entered++;
      for (const arrived of arrivals.splice(0)) arrived();
      await released;
      return "done";
    });
    /** Resolves once `n` calls have reached the upstream (so the proxy has them in progress). */
    const reached = (n: number) =>
      new Promise<void>(function wait(resolve) {
        if (entered >= n) resolve();
        else arrivals.push(() => wait(resolve));
      });
    const { connect, sessions } = connectorTo(server);
    const { createProxy } = await import("../../src/compose/index.js");
    const proxy = await createProxy(connect, { upstreamSessions: "shared" });
    later(() => proxy.close());
    const ada = await callerOf(proxy);
    const bob = await callerOf(proxy);
    const logs = { ada: [] as unknown[], bob: [] as unknown[] };
    ada.client.on("notifications/message", (p) => logs.ada.push(p.data));
    bob.client.on("notifications/message", (p) => logs.bob.push(p.data));
    await ada.client.setLogLevel("info");
    await bob.client.setLogLevel("info");
    // The upstream's one session (the shared connection's); its logs here are sent outside any call.
    const upstream = sessions[0] as ServerSession;

    const adas = ada.client.callTool("hold");
    await reached(1);
    upstream.log("info", "while ada calls");
    const bobs = bob.client.callTool("hold");
    await reached(2);
    upstream.log("info", "while ada and bob call");
    release();
    // Each answer comes after the logs sent before it, had they been passed on.
    await Promise.all([adas, bobs]);
    upstream.log("info", "while no one calls");
    await Promise.all([ada.client.callTool("allowed"), bob.client.callTool("allowed")]);
    expect(logs).toEqual({ ada: ["while ada calls"], bob: [] });
  });
});

describe("the era the proxy speaks", () => {
  it("is its upstream's: a legacy upstream's proxy refuses 2026-07-28, and a client falls back to initialize", async () => {
    const proxy = await proxyOf(rootsAskingServer());
    await expect(callerOf(proxy, { protocolVersion: "2026-07-28" })).rejects.toThrow(
      "The server supports protocol revisions 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
    );
    const { client } = await callerOf(proxy);
    expect(client.protocolVersion).toBe("2025-11-25");
  });
});
