import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../src/client/index.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import { streamableHttpClientTransport } from "../../src/transports/streamable-http/client/index.js";
import { answerHandshake, legacySdkServer, listen, until, within } from "../http-client/helpers.js";
import {
  cleanup,
  complete,
  connectHttp,
  DISCOVER_RESULT,
  fakeServer,
  json,
  META_CAPS,
  META_INFO,
  META_VERSION,
  RouteError,
  track,
} from "./fake-http.js";

// basic/versioning §Backward Compatibility and transports/streamable-http §Backward
// Compatibility: the client opens with server/discover; a DiscoverResult or a modern error
// means a 2026-07-28 server, a 4xx without one means an older server (then initialize).

afterEach(cleanup);

/** A legacy Streamable HTTP server: initialize and a tool; anything before initialize gets `status` and `body`. */
async function legacyServer(status: number, body?: unknown) {
  return listen((req, res, message) => {
    const m = message as { method?: string; id?: number } | undefined;
    if (m?.method === "server/discover") {
      if (body === undefined) return void res.writeHead(status).end();
      return json(res, status, body);
    }
    if (answerHandshake(req, res, message)) return;
    if (req.method === "POST" && m?.method === "tools/list")
      return json(res, 200, { jsonrpc: "2.0", id: m.id, result: { tools: [] } });
    res.writeHead(405).end();
  });
}

describe("connecting over Streamable HTTP", () => {
  it("opens with server/discover carrying the _meta envelope and the version header, and stays modern", async () => {
    const server = await fakeServer({});
    const { client, transport } = await connectHttp(server.url, { elicitation: () => ({ action: "cancel" }) });

    expect(server.exchanges.map((e) => e.method)).toEqual(["server/discover"]);
    const [discover] = server.exchanges;
    expect(discover?.params._meta).toEqual({
      [META_VERSION]: "2026-07-28",
      [META_CAPS]: { elicitation: { form: {} } },
      [META_INFO]: { name: "modern-test", version: "1.2.3" },
    });
    expect(discover?.headers["mcp-protocol-version"]).toBe("2026-07-28");
    expect(discover?.headers["mcp-method"]).toBe("server/discover");
    expect(discover?.headers["mcp-session-id"]).toBeUndefined();

    expect(client.protocolEra).toBe("modern");
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo).toEqual({ name: "fake-modern", version: "9.9.9" });
    expect(client.serverCapabilities).toEqual(DISCOVER_RESULT.capabilities);
    expect(client.instructions).toBe("Use the fake tools.");
    expect(client.discoverResult?.supportedVersions).toEqual(["2026-07-28"]);
    expect(transport.sessionId).toBeUndefined();
    // 2026-07-28 has no GET stream (change notifications come on subscriptions/listen); one
    // would be opened on connecting, before this later request.
    await client.ping();
    expect(server.seen.some((s) => s.method === "GET")).toBe(false);
  });

  it("describes the server in connect()'s answer and reads serverInfo from a top-level field too", async () => {
    const { _meta, ...bare } = DISCOVER_RESULT;
    const server = await fakeServer({
      "server/discover": () => ({ ...bare, serverInfo: { name: "flat", version: "1" } }),
    });
    const client = track(new Client({ name: "c", version: "1" }));
    const described = await within(client.connect(streamableHttpClientTransport(server.url)), 5000, "connect");
    expect(described).toMatchObject({
      era: "modern",
      protocolVersion: "2026-07-28",
      serverInfo: { name: "flat", version: "1" },
      capabilities: DISCOVER_RESULT.capabilities,
      instructions: "Use the fake tools.",
    });
  });

  it("retries with a version from `supported` after -32022, and never falls back to initialize", async () => {
    let rejected = 0;
    const server = await fakeServer({
      "server/discover": (params) => {
        if (rejected++ === 0) {
          throw new RouteError(
            -32022,
            "Unsupported protocol version",
            {
              supported: ["2026-07-28"],
              requested: params._meta?.[META_VERSION],
            },
            400,
          );
        }
        return DISCOVER_RESULT;
      },
    });
    const { client } = await connectHttp(server.url);
    expect(server.exchanges.map((e) => e.method)).toEqual(["server/discover", "server/discover"]);
    expect(server.exchanges[1]?.id).not.toBe(server.exchanges[0]?.id);
    expect(server.exchanges[1]?.headers["mcp-protocol-version"]).toBe("2026-07-28");
    expect(client.protocolEra).toBe("modern");
  });

  it("uses initialize when -32022 lists only handshake revisions", async () => {
    const server = await listen((req, res, message) => {
      const m = message as { method?: string; id?: number };
      if (m.method === "server/discover") {
        return json(res, 400, {
          jsonrpc: "2.0",
          id: m.id,
          error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2025-06-18"] } },
        });
      }
      if (answerHandshake(req, res, message)) return;
      res.writeHead(405).end();
    });
    const { client } = await connectHttp(server.url);
    const posts = server.seen.filter((s) => s.method === "POST").map((s) => s.rpc);
    expect(posts.slice(0, 2)).toEqual(["server/discover", "initialize"]);
    expect(client.protocolEra).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-06-18");
  });

  it.each([
    [
      "400 with a non-modern JSON-RPC error",
      400,
      { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID" } },
    ],
    ["400 with an empty body", 400, undefined],
    ["404", 404, undefined],
    ["405", 405, undefined],
  ])("falls back to initialize on %s", async (_name, status, body) => {
    const server = await legacyServer(status, body);
    const { client, transport } = await connectHttp(server.url);
    await until(() => server.seen.some((s) => s.rpc === "notifications/initialized"), "notifications/initialized");
    const posts = server.seen.filter((s) => s.method === "POST").map((s) => s.rpc);
    expect(posts).toEqual(["server/discover", "initialize", "notifications/initialized"]);
    expect(client.protocolEra).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(transport.sessionId).toBe("raw-session");
    // Legacy requests carry no _meta envelope.
    await client.listTools();
    const list = server.seen.find((s) => s.rpc === "tools/list");
    expect(list?.headers["mcp-protocol-version"]).toBe("2025-11-25");
    expect(list?.headers["mcp-session-id"]).toBe("raw-session");
  });

  it.each([
    ["-32020 HeaderMismatch", -32020],
    ["-32021 MissingRequiredClientCapability", -32021],
    ["-32602 Invalid params", -32602],
  ])("does not fall back on a 400 carrying %s: it is a modern server", async (_name, code) => {
    const server = await fakeServer({
      "server/discover": () => {
        throw new RouteError(code, "refused", undefined, 400);
      },
    });
    const client = track(new Client({ name: "c", version: "1", timeoutMs: 3000 }));
    const error = await within(client.connect(streamableHttpClientTransport(server.url)), 5000, "connect").catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(code);
    expect(server.exchanges.map((e) => e.method)).toEqual(["server/discover"]);
    expect(client.isConnected).toBe(false);
  });

  it.each([400, 404, 405])(
    "reaches a 2024-11-05 HTTP+SSE server: discover and initialize both get %i, then the old transport",
    async (status) => {
      const server = await legacySdkServer((s) => {
        s.registerTool("echo", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "old" }] }));
      }, status);
      const { client, transport } = await connectHttp(server.url);
      expect(transport.mode).toBe("sse");
      expect(client.protocolEra).toBe("legacy");
      const posts = server.seen.filter((s) => s.method === "POST" && s.url === "/mcp").map((s) => s.rpc);
      expect(posts).toEqual(["server/discover", "initialize"]);
      expect((await client.callTool("echo", {})).content).toEqual([{ type: "text", text: "old" }]);
    },
  );

  it("with protocolVersion 2025-11-25 skips the probe and opens with initialize", async () => {
    const server = await legacyServer(400);
    const { client } = await connectHttp(server.url, { protocolVersion: "2025-11-25" });
    await until(() => server.seen.some((s) => s.rpc === "notifications/initialized"), "notifications/initialized");
    const posts = server.seen.filter((s) => s.method === "POST").map((s) => s.rpc);
    expect(posts).toEqual(["initialize", "notifications/initialized"]);
    expect(client.protocolEra).toBe("legacy");
  });

  it("with protocolVersion 2026-07-28 refuses a legacy server instead of falling back", async () => {
    const server = await legacyServer(400, { jsonrpc: "2.0", error: { code: -32000, message: "No session" } });
    const client = track(new Client({ name: "c", version: "1", protocolVersion: "2026-07-28" }));
    await expect(within(client.connect(streamableHttpClientTransport(server.url)), 5000, "connect")).rejects.toThrow(
      /does not speak protocol revision 2026-07-28/,
    );
    expect(server.seen.filter((s) => s.method === "POST").map((s) => s.rpc)).toEqual(["server/discover"]);
  });

  it("takes an answer that is not a DiscoverResult for a legacy server", async () => {
    // The 2025-11-25 conformance servers answer unknown methods with an empty result.
    const server = await listen((req, res, message) => {
      const m = message as { method?: string; id?: number };
      if (m.method === "server/discover") return json(res, 200, { jsonrpc: "2.0", id: m.id, result: {} });
      if (answerHandshake(req, res, message)) return;
      res.writeHead(405).end();
    });
    const { client } = await connectHttp(server.url);
    expect(client.protocolEra).toBe("legacy");
  });

  it("does not take an unreachable server for a legacy one", async () => {
    const server = await fakeServer({});
    const url = server.url;
    await server.close();
    const client = track(new Client({ name: "c", version: "1" }));
    const error = await within(client.connect(streamableHttpClientTransport(url)), 5000, "connect").catch((e) => e);
    expect((error as McpError).data).toMatchObject({ reason: "network-error" });
  });

  it("uses the version the server lists when it does not list the one asked for", async () => {
    const server = await fakeServer({
      "server/discover": () => complete({ ...DISCOVER_RESULT, supportedVersions: ["2099-01-01", "2025-11-25"] }),
    });
    // Only a handshake revision in common: initialize follows (this fake has none, so it fails with 404).
    const client = track(new Client({ name: "c", version: "1" }));
    await expect(within(client.connect(streamableHttpClientTransport(server.url)), 5000, "connect")).rejects.toThrow(
      /HTTP 404/,
    );
    expect(server.exchanges.map((e) => e.method)).toEqual(["server/discover", "initialize"]);
    expect(server.exchanges[1]?.params).toMatchObject({ protocolVersion: "2025-11-25" });
  });
});
