import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../src/client/client.js";
import { McpError } from "../src/jsonrpc/errors.js";
import { createServer } from "../src/server/index.js";
import { createLinkedPair } from "../src/transports/memory/linked-pair.js";
import { streamableHttpClientTransport } from "../src/transports/streamable-http/client/index.js";
import { initializeParams, rawPeer } from "./helpers.js";
import { serveHttp } from "./http-server/helpers.js";

// A server of modern revisions only (`revisions: ["2026-07-28"]`) has no initialize
// handshake. basic/versioning §Backward Compatibility: it names the revisions it supports in
// its error to initialize, on any transport (a legacy client has no way forward); on HTTP a
// version it does not serve is 400 with UnsupportedProtocolVersionError (-32022, data.supported).
// A dual-era client refused that way moves to a revision it speaks, or says plainly why not.

function modernOnly() {
  const server = createServer({ name: "modern-only", version: "1", revisions: ["2026-07-28"] });
  server.tool("ping_me", {}, () => "pong");
  return server;
}

const REFUSAL = {
  code: -32022,
  message:
    "Unsupported protocol version 2025-11-25: this server supports only 2026-07-28, which has no initialize handshake (a client of 2026-07-28 sends server/discover or requests with _meta)",
  data: { supported: ["2026-07-28"], requested: "2025-11-25" },
};

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function overHttp(sessions: boolean) {
  const served = await serveHttp(modernOnly(), { sessions });
  closers.push(served.close);
  return served;
}

describe("a server of modern revisions only, asked to initialize", () => {
  it("over a connection (stdio, in memory) answers -32022 naming the revisions it supports, and serves nothing legacy", async () => {
    const [a, b] = createLinkedPair();
    await modernOnly().connect(b);
    const peer = rawPeer(a);
    expect(await peer.request("initialize", initializeParams("2025-11-25"))).toMatchObject({ error: REFUSAL });
    // No session was opened: a legacy request is still refused as before initialize.
    expect(await peer.request("tools/list")).toMatchObject({ error: { code: -32600 } });
  });

  for (const sessions of [true, false]) {
    it(`over Streamable HTTP (${sessions ? "with" : "without"} sessions) answers 400 with -32022 and opens no session`, async () => {
      const served = await overHttp(sessions);
      const response = await served.post({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams() });
      expect(response.status).toBe(400);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, error: REFUSAL });
      // A legacy request after it, whatever its version header, is refused the same way.
      const later = await served.post(
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { "mcp-protocol-version": "2025-06-18" },
      );
      expect(later.status).toBe(400);
      expect(await later.json()).toMatchObject({ id: 2, error: { code: -32022, data: { requested: "2025-06-18" } } });
    });
  }

  it("is shown to a legacy client (the official SDK) with the revisions it supports", async () => {
    const served = await overHttp(true);
    const sdk = new SdkClient({ name: "legacy", version: "1" });
    const failure = await sdk.connect(new StreamableHTTPClientTransport(new URL(served.url))).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toContain("this server supports only 2026-07-28");
    await sdk.close();
  });
});

describe("mcpkit's client against a server of modern revisions only", () => {
  it("over HTTP, discovers it and speaks 2026-07-28", async () => {
    const served = await overHttp(true);
    const client = new Client({ name: "c", version: "1" });
    closers.push(() => client.close());
    await client.connect(streamableHttpClientTransport(served.url));
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(await client.callTool("ping_me")).toMatchObject({ content: [{ text: "pong" }] });
  });

  it("in memory (where it opens with initialize), moves to 2026-07-28 when the server lists only that", async () => {
    const [a, b] = createLinkedPair();
    await modernOnly().connect(b);
    const client = new Client({ name: "c", version: "1" });
    closers.push(() => client.close());
    await client.connect(a);
    expect(client.protocolEra).toBe("modern");
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(await client.callTool("ping_me")).toMatchObject({ content: [{ text: "pong" }] });
  });

  for (const where of ["HTTP", "memory"] as const) {
    it(`told to use 2025-11-25 (${where}), says plainly that the server supports only 2026-07-28`, async () => {
      const client = new Client({ name: "c", version: "1", protocolVersion: "2025-11-25" });
      let transport: Parameters<Client["connect"]>[0];
      if (where === "HTTP") transport = streamableHttpClientTransport((await overHttp(true)).url);
      else {
        const [a, b] = createLinkedPair();
        await modernOnly().connect(b);
        transport = a;
      }
      const failure = await client.connect(transport).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(McpError);
      expect(failure).toMatchObject({
        code: -32022,
        message:
          "The server supports only protocol revision 2026-07-28, not 2025-11-25, the revision this client was told to use (protocolVersion)",
        data: { supported: ["2026-07-28"] },
      });
    });
  }

  it("says plainly when the server lists only revisions this client does not speak", async () => {
    const [a, b] = createLinkedPair();
    const server = rawPeer(b);
    const client = new Client({ name: "c", version: "1" });
    const connecting = client.connect(a).then(
      () => undefined,
      (error: unknown) => error,
    );
    const initialize = await server.next((m) => "method" in m && m.method === "initialize");
    server.send({
      jsonrpc: "2.0",
      id: (initialize as { id: number }).id,
      error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2099-01-01"] } },
    });
    expect(await connecting).toMatchObject({
      code: -32022,
      message: "The server supports only protocol revision 2099-01-01, which this client does not speak",
    });
  });
});
