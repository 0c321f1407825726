import { describe, expect, it, vi } from "vitest";
import { Client } from "../src/client/client.js";
import { createServer, type ServerSession } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";
import { createLinkedPair } from "../src/transports/memory/linked-pair.js";
import { initializeParams, rawPeer } from "./helpers.js";

function serverWithTool() {
  const server = createServer({
    name: "life",
    version: "1.2.3",
    title: "Lifecycle server",
    icons: [{ src: "https://example.com/icon.png", mimeType: "image/png" }],
    websiteUrl: "https://example.com",
    instructions: "Use the echo tool.",
  });
  server.tool("echo", {}, () => "hi");
  return server;
}

async function rawClientOf(server = serverWithTool()) {
  const [a, b] = createLinkedPair();
  const session = await server.connect(b);
  return { peer: rawPeer(a), session, server };
}

describe("basic/lifecycle: initialization", () => {
  it("answers initialize with the requested revision, server info, capabilities and instructions", async () => {
    const { peer } = await rawClientOf();
    const response = await peer.request("initialize", initializeParams("2025-06-18"));
    expect(response).toMatchObject({
      result: {
        protocolVersion: "2025-06-18",
        serverInfo: { name: "life", version: "1.2.3", title: "Lifecycle server" },
        capabilities: { tools: { listChanged: true }, logging: {} },
        instructions: "Use the echo tool.",
      },
    });
  });

  it("offers icons and websiteUrl from 2025-11-25 only", async () => {
    const latest = await rawClientOf();
    const r1 = (await latest.peer.request("initialize", initializeParams("2025-11-25"))) as unknown as {
      result: { serverInfo: Record<string, unknown> };
    };
    expect(r1.result.serverInfo).toMatchObject({
      icons: [{ src: "https://example.com/icon.png" }],
      websiteUrl: "https://example.com",
    });
    const older = await rawClientOf();
    const r2 = (await older.peer.request("initialize", initializeParams("2024-11-05"))) as unknown as {
      result: { serverInfo: Record<string, unknown> };
    };
    expect(r2.result.serverInfo).toEqual({ name: "life", version: "1.2.3" });
  });

  it("answers an unsupported revision with the latest one it supports", async () => {
    const { peer } = await rawClientOf();
    const response = await peer.request("initialize", initializeParams("2099-01-01"));
    expect(response).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  });

  it("negotiates only the revisions the server is configured for", async () => {
    const server = createServer({ name: "old", version: "1", revisions: ["2024-11-05", "2025-03-26"] });
    const { peer } = await rawClientOf(server);
    const response = await peer.request("initialize", initializeParams("2025-11-25"));
    expect(response).toMatchObject({ result: { protocolVersion: "2025-03-26" } });
  });

  it("refuses anything but ping before initialize", async () => {
    const { peer } = await rawClientOf();
    await expect(peer.request("ping")).resolves.toMatchObject({ result: {} });
    const refused = await peer.request("tools/list");
    expect(refused).toMatchObject({ error: { code: -32600, message: expect.stringContaining("before initialize") } });
  });

  it("answers a second initialize with an error carrying its own id", async () => {
    const { peer } = await rawClientOf();
    await peer.request("initialize", initializeParams());
    peer.send({ jsonrpc: "2.0", id: "second", method: "initialize", params: initializeParams() });
    const second = await peer.next((m) => "id" in m && m.id === "second");
    expect(second).toMatchObject({
      id: "second",
      error: { code: -32600, message: expect.stringContaining("already initialized") },
    });
  });

  it("rejects an initialize without a protocolVersion with -32602", async () => {
    const { peer } = await rawClientOf();
    const response = await peer.request("initialize", { capabilities: {}, clientInfo: { name: "x", version: "1" } });
    expect(response).toMatchObject({ error: { code: -32602 } });
  });

  it("tells the server when the client has finished the handshake", async () => {
    const onSession = vi.fn();
    const server = createServer({ name: "s", version: "1", onSession });
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: "c", version: "9", title: "The client" });
    await client.connect(a);
    await client.ping(); // the server reads notifications/initialized before this request
    expect(onSession).toHaveBeenCalledOnce();
    expect(onSession.mock.calls[0]?.[0].clientInfo).toEqual({ name: "c", version: "9", title: "The client" });
    expect(onSession.mock.calls[0]?.[0].revision).toBe("2025-11-25");
  });
});

describe("sessions as handlers and the server see them", () => {
  it("gives each request the session it arrived on, the one onSession and onNotification name", async () => {
    const started: ServerSession[] = [];
    const notified: [string, ServerSession][] = [];
    const server = createServer({
      name: "s",
      version: "1",
      onSession: (session) => started.push(session),
      onNotification: (notification, session) => notified.push([notification.method, session]),
    });
    const seen: (ServerSession | undefined)[] = [];
    server.tool("who", {}, (_a, ctx) => {
      seen.push(ctx.session);
      return "";
    });
    const one = await connectInMemory(server, { protocolVersion: "2025-11-25", roots: [] });
    const two = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    await one.client.callTool("who");
    await two.client.callTool("who");
    await one.client.callTool("who");
    expect(seen).toEqual([one.session, two.session, one.session]);
    expect(seen[0]).toBe(one.session);
    expect(seen[0]).not.toBe(seen[1]);
    // toEqual compares structure; the sessions must be the very objects.
    expect(seen[1]).toBe(two.session);
    expect(seen[2]).toBe(one.session);
    expect(started).toEqual([one.session, two.session]);
    expect(started[0]).toBe(one.session);
    expect(started[1]).toBe(two.session);

    one.client.setRoots([{ uri: "file:///tmp" }]);
    await one.client.ping(); // the notification is read before this later request
    expect(notified).toEqual([["notifications/roots/list_changed", one.session]]);
    expect(notified[0]?.[1]).toBe(one.session);
  });

  it("has no session for a 2026-07-28 request, which carries everything itself", async () => {
    const server = createServer({ name: "s", version: "1" });
    let session: ServerSession | undefined | "unset" = "unset";
    server.tool("who", {}, (_a, ctx) => {
      session = ctx.session;
      return "";
    });
    const { client } = await connectInMemory(server, { protocolVersion: "2026-07-28" });
    await client.callTool("who");
    expect(session).toBeUndefined();
  });
});

describe("basic/lifecycle: the client's side of negotiation", () => {
  it("connects and exposes what the server declared", async () => {
    const [a, b] = createLinkedPair();
    await serverWithTool().connect(b);
    const client = new Client({ name: "c", version: "1" });
    const result = await client.connect(a);
    expect(result.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo?.title).toBe("Lifecycle server");
    expect(client.instructions).toBe("Use the echo tool.");
    expect(client.serverCapabilities?.tools).toEqual({ listChanged: true });
  });

  it("refuses a server that answers with a revision it does not support, and disconnects", async () => {
    const [a, b] = createLinkedPair();
    const fake = rawPeer(b);
    const client = new Client({ name: "c", version: "1" });
    const connecting = client.connect(a);
    const init = await fake.next((m) => "method" in m && m.method === "initialize");
    fake.send({
      jsonrpc: "2.0",
      id: (init as { id: number }).id,
      result: { protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "f", version: "1" } },
    });
    await expect(connecting).rejects.toThrow(/1999-01-01/);
    await fake.whenClosed;
    expect(fake.received.some((m) => "method" in m && m.method === "notifications/initialized")).toBe(false);
  });

  it("declares capabilities from its handlers and options", () => {
    const client = new Client({
      name: "c",
      version: "1",
      sampling: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }),
      elicitation: () => ({ action: "cancel" }),
      roots: [],
      capabilities: { sampling: { tools: {} }, experimental: { x: {} } },
    });
    expect(client.capabilities).toEqual({
      sampling: { tools: {} },
      elicitation: { form: {} },
      roots: { listChanged: true },
      experimental: { x: {} },
    });
  });
});

describe("basic/lifecycle: capability negotiation", () => {
  it("answers -32601 for a method whose capability the server did not declare", async () => {
    const server = createServer({ name: "tools-only", version: "1" });
    server.tool("t", {}, () => "x");
    const { peer } = await rawClientOf(server);
    await peer.request("initialize", initializeParams());
    for (const method of ["prompts/list", "resources/list", "completion/complete", "resources/subscribe"]) {
      expect(await peer.request(method, {})).toMatchObject({ error: { code: -32601 } });
    }
  });

  it("answers -32601 for methods the negotiated revision does not have", async () => {
    const { peer } = await rawClientOf();
    await peer.request("initialize", initializeParams());
    expect(await peer.request("tasks/list")).toMatchObject({ error: { code: -32601 } });
    expect(await peer.request("constructor")).toMatchObject({ error: { code: -32601 } });
    expect(await peer.request("__proto__")).toMatchObject({ error: { code: -32601 } });
  });

  it("client refuses locally to call what the server does not offer", async () => {
    const server = createServer({ name: "tools-only", version: "1" });
    server.tool("t", {}, () => "x");
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(a);
    expect(() => client.listPrompts()).toThrow(/does not offer prompts/);
    // The cached lists too, as a rejection (not a request the server would refuse).
    await expect(client.prompts()).rejects.toThrow(/does not offer prompts/);
    await expect(client.resources()).rejects.toThrow(/does not offer resources/);
    await expect(client.resourceTemplates()).rejects.toThrow(/does not offer resources/);
    await expect(client.tools()).resolves.toHaveLength(1);
  });

  it("client refuses locally to list tools from a server that offers none", async () => {
    const server = createServer({ name: "prompts-only", version: "1" });
    server.prompt("p", {}, () => "x");
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(a);
    await expect(client.tools()).rejects.toMatchObject({
      code: -32601,
      message: expect.stringMatching(/does not offer tools/),
    });
  });

  it("client answers -32601 to server requests for capabilities it did not declare", async () => {
    const server = createServer({ name: "s", version: "1" });
    const [a, b] = createLinkedPair();
    const session = await server.connect(b);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(a);
    await expect(session.request("roots/list", {})).rejects.toMatchObject({ code: -32601 });
    await session.ping();
  });
});

describe("basic/utilities/ping", () => {
  it("works in both directions", async () => {
    const [a, b] = createLinkedPair();
    const session = await serverWithTool().connect(b);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(a);
    await expect(client.ping()).resolves.toBeUndefined();
    await expect(session.ping()).resolves.toBeUndefined();
  });
});
