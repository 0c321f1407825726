import { afterEach, describe, expect, it } from "vitest";
import { McpError } from "../../src/jsonrpc/errors.js";
import {
  cleanup,
  complete,
  connectHttp,
  type Exchange,
  fakeServer,
  META_CAPS,
  META_INFO,
  META_LEVEL,
  META_VERSION,
  RouteError,
} from "./fake-http.js";

// basic/index §_meta and transports/streamable-http §Request Metadata (2026-07-28): what
// every request carries in its body and in its headers, read off a hand-written server.

afterEach(cleanup);

const sentinel = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

const TOOLS = [
  {
    name: "execute_sql",
    inputSchema: {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        priority: { type: "integer", "x-mcp-header": "Priority" },
        verbose: { type: "boolean", "x-mcp-header": "Verbose" },
        nullable: { type: ["string", "null"], "x-mcp-header": "Maybe" },
        nested: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } },
        query: { type: "string" },
        score: { type: "number" },
      },
    },
  },
  { name: "plain", inputSchema: { type: "object" } },
];

function standardRoutes() {
  return {
    "tools/list": () => complete({ tools: TOOLS, ttlMs: 0, cacheScope: "public" }),
    "tools/call": (params: Record<string, unknown>) =>
      complete({ content: [{ type: "text", text: `called ${params.name}` }] }),
    "resources/read": (params: Record<string, unknown>) =>
      complete({ contents: [{ uri: params.uri, text: "hi" }], ttlMs: 0, cacheScope: "private" }),
    "prompts/get": () => complete({ messages: [] }),
    "completion/complete": () => complete({ completion: { values: ["a"] } }),
  };
}

const meta = (e: Exchange | undefined) => e?.params._meta ?? {};

describe("the _meta envelope", () => {
  it("is on every request, with the declared capabilities and clientInfo; the version header matches it", async () => {
    const server = await fakeServer(standardRoutes());
    const { client } = await connectHttp(server.url, {
      title: "Modern Test",
      sampling: () => ({ role: "assistant", model: "m", content: { type: "text", text: "x" } }),
      roots: [{ uri: "file:///r" }],
      capabilities: { elicitation: { url: {} } },
    });
    await client.listTools();
    await client.callTool("plain", {});
    await client.readResource("file:///a.txt");
    await client.getPrompt("p", { x: "1" });
    await client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "x", value: "" } });
    await client.ping();

    const methods = server.exchanges.map((e) => e.method);
    expect(methods).toEqual([
      "server/discover",
      "tools/list",
      "tools/call",
      "resources/read",
      "prompts/get",
      "completion/complete",
      "server/discover", // ping: 2026-07-28 has no ping method
    ]);
    for (const exchange of server.exchanges) {
      expect(meta(exchange)).toEqual({
        [META_VERSION]: "2026-07-28",
        // roots without listChanged: 2026-07-28 has no roots/list_changed notification.
        [META_CAPS]: { sampling: {}, roots: {}, elicitation: { url: {} } },
        [META_INFO]: { name: "modern-test", version: "1.2.3", title: "Modern Test" },
      });
      expect(exchange.headers["mcp-protocol-version"]).toBe("2026-07-28");
      expect(exchange.headers["mcp-method"]).toBe(exchange.method);
    }
  });

  it("keeps the log level locally and sends it in _meta instead of calling logging/setLevel", async () => {
    const server = await fakeServer(standardRoutes());
    const { client } = await connectHttp(server.url);
    await client.callTool("plain", {});
    await client.setLogLevel("warning");
    await client.callTool("plain", {});
    expect(server.of("logging/setLevel")).toHaveLength(0);
    const [before, after] = server.of("tools/call");
    expect(meta(before)[META_LEVEL]).toBeUndefined();
    expect(meta(after)[META_LEVEL]).toBe("warning");
  });

  it("asks for every level when a notifications/message listener exists but no level was set", async () => {
    const server = await fakeServer(standardRoutes());
    const { client } = await connectHttp(server.url);
    await client.callTool("plain", {});
    const stop = client.on("notifications/message", () => undefined);
    await client.callTool("plain", {});
    await client.setLogLevel("error");
    await client.callTool("plain", {});
    stop();
    await client.callTool("plain", {});
    expect(server.of("tools/call").map((call) => meta(call)[META_LEVEL])).toEqual([
      undefined,
      "debug",
      "error",
      "error",
    ]);
  });

  it("adds the caller's _meta keys (trace context) but keeps the protocol's own", async () => {
    const server = await fakeServer(standardRoutes());
    const { client } = await connectHttp(server.url);
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    await client.callTool("plain", {}, { meta: { traceparent, baggage: "k=v", [META_VERSION]: "1999-01-01" } });
    const call = server.of("tools/call")[0];
    expect(meta(call)).toMatchObject({ traceparent, baggage: "k=v", [META_VERSION]: "2026-07-28" });
  });

  it("puts a progress token next to the envelope and delivers progress", async () => {
    const server = await fakeServer({
      "tools/call": (params, _e, res) => {
        const token = params._meta?.progressToken;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } })}\n\n`,
        );
        res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: _e.id, result: complete({ content: [] }) })}\n\n`);
        return undefined;
      },
    });
    const { client } = await connectHttp(server.url);
    const seen: number[] = [];
    await client.callTool("plain", {}, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1]);
    expect(meta(server.of("tools/call")[0])).toMatchObject({
      [META_VERSION]: "2026-07-28",
      progressToken: expect.anything(),
    });
  });
});

describe("standard request headers", () => {
  it("sends Mcp-Name for tools/call, resources/read and prompts/get, Base64-encoded when not header-safe", async () => {
    const server = await fakeServer(standardRoutes());
    const { client } = await connectHttp(server.url);
    await client.callTool("my-hyphenated.tool", {});
    await client.callTool("outil-été", {});
    await client.readResource("file:///path/to/file%20name.txt");
    await client.readResource("file:///with space.txt ");
    await client.getPrompt("=?base64?looks-encoded?=");
    const names = server.exchanges
      .filter((e) => e.method !== "tools/list" && e.method !== "server/discover")
      .map((e) => [e.headers["mcp-method"], e.headers["mcp-name"]]);
    // Unknown to the first list, the second tool does not make the client list again.
    expect(server.of("tools/list")).toHaveLength(1);
    expect(names).toEqual([
      ["tools/call", "my-hyphenated.tool"],
      ["tools/call", sentinel("outil-été")],
      ["resources/read", "file:///path/to/file%20name.txt"],
      ["resources/read", sentinel("file:///with space.txt ")],
      ["prompts/get", sentinel("=?base64?looks-encoded?=")],
    ]);
    expect(server.exchanges[0]?.headers["mcp-name"]).toBeUndefined();
  });
});

describe("x-mcp-header parameters", () => {
  it("mirrors annotated arguments into Mcp-Param headers with the spec's encodings", async () => {
    const server = await fakeServer(standardRoutes());
    const { client } = await connectHttp(server.url);
    const cases: [Record<string, unknown>, Record<string, string | undefined>][] = [
      [
        { region: "us-west1", priority: 42, verbose: false },
        { region: "us-west1", priority: "42", verbose: "false" },
      ],
      [
        { region: "Hello, 世界", priority: -7, verbose: true },
        { region: sentinel("Hello, 世界"), priority: "-7", verbose: "true" },
      ],
      [{ region: " padded " }, { region: "=?base64?IHBhZGRlZCA=?=" }],
      [{ region: "line1\nline2" }, { region: "=?base64?bGluZTEKbGluZTI=?=" }],
      [{ region: "=?base64?literal?=" }, { region: "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=" }],
      [{ region: "\tindented" }, { region: sentinel("\tindented") }],
      [{ region: "us west 1" }, { region: "us west 1" }],
      [{ region: "" }, { region: sentinel("") }],
      [
        { maybe: null, nested: { tenant: "acme" } },
        { maybe: undefined, tenant: "acme" },
      ],
      [{ query: "SELECT 1", score: 3.5 }, {}],
    ];
    for (const [args] of cases) await client.callTool("execute_sql", args);
    const calls = server.of("tools/call");
    expect(calls).toHaveLength(cases.length);
    calls.forEach((call, i) => {
      const expected = cases[i]?.[1] ?? {};
      const sent: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(call.headers))
        if (name.startsWith("mcp-param-")) sent[name.slice("mcp-param-".length)] = value as string;
      const wanted = Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== undefined));
      expect(sent, JSON.stringify(cases[i]?.[0])).toEqual(wanted);
      // The body carries the arguments untouched.
      expect(call.params.arguments).toEqual(cases[i]?.[0]);
    });
    // The client needed the schemas, so it listed the tools once before the first call.
    expect(server.exchanges.map((e) => e.method).slice(0, 3)).toEqual(["server/discover", "tools/list", "tools/call"]);
  });

  it("leaves tools with invalid annotations out of tools/list, warns once per tool, and refuses to call them", async () => {
    const invalid: Record<string, Record<string, unknown>> = {
      empty: { v: { type: "string", "x-mcp-header": "" } },
      space: { v: { type: "string", "x-mcp-header": "My Region" } },
      colon: { v: { type: "string", "x-mcp-header": "Region:Primary" } },
      nonAscii: { v: { type: "string", "x-mcp-header": "Région" } },
      control: { v: { type: "string", "x-mcp-header": "Region\t1" } },
      object: { v: { type: "object", "x-mcp-header": "Data" } },
      array: { v: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } },
      nullType: { v: { type: "null", "x-mcp-header": "Nil" } },
      number: { v: { type: "number", "x-mcp-header": "Score" } },
      untyped: { v: { "x-mcp-header": "Untyped" } },
      duplicate: { a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } },
    };
    const unreachable: Record<string, Record<string, unknown>> = {
      underItems: {
        type: "object",
        properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "I" } } },
      },
      underAnyOf: { type: "object", anyOf: [{ properties: { a: { type: "string", "x-mcp-header": "A" } } }] },
      underDefs: {
        type: "object",
        $defs: { s: { type: "string", "x-mcp-header": "S" } },
        properties: { s: { $ref: "#/$defs/s" } },
      },
      atRoot: { type: "object", "x-mcp-header": "Root" },
    };
    const tools = [
      {
        name: "valid",
        inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      },
      // A property merely named x-mcp-header, and the annotation's name inside a default value, are not annotations.
      {
        name: "lookalike",
        inputSchema: {
          type: "object",
          properties: { "x-mcp-header": { type: "object", default: { "x-mcp-header": 1 } } },
        },
      },
      ...Object.entries(invalid).map(([name, properties]) => ({ name, inputSchema: { type: "object", properties } })),
      ...Object.entries(unreachable).map(([name, inputSchema]) => ({ name, inputSchema })),
    ];
    const server = await fakeServer({ ...standardRoutes(), "tools/list": () => complete({ tools, ttlMs: 0 }) });
    const warnings: unknown[] = [];
    const { client } = await connectHttp(server.url, { onError: (e) => warnings.push(e) });

    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["valid", "lookalike"]);
    expect((await client.tools()).map((t) => t.name)).toEqual(["valid", "lookalike"]);
    const rejected = Object.keys(invalid).length + Object.keys(unreachable).length;
    expect(warnings).toHaveLength(rejected); // listed twice, warned once each
    expect(String(warnings.find((w) => String(w).includes('"number"')))).toMatch(
      /Tool "number" left out of tools\/list/,
    );

    const refused = await client.callTool("number", { v: 1.5 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toMatch(/Tool "number" was rejected/);
    expect(server.of("tools/call")).toHaveLength(0);
    await client.callTool("valid", { region: "eu" });
    expect(server.of("tools/call")[0]?.headers["mcp-param-region"]).toBe("eu");
  });

  it("re-reads the tool list after a HeaderMismatch and retries once with the new schema's headers", async () => {
    let schemaVersion = 1;
    const schema = () =>
      schemaVersion === 1
        ? { type: "object", properties: { region: { type: "string" } } }
        : { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
    const server = await fakeServer({
      "tools/list": () => complete({ tools: [{ name: "t", inputSchema: schema() }], ttlMs: 60_000 }),
      "tools/call": (_p, exchange) => {
        if (!exchange.headers["mcp-param-region"])
          throw new RouteError(-32020, "Header mismatch: Mcp-Param-Region is missing", undefined, 400);
        return complete({ content: [{ type: "text", text: "ok" }] });
      },
    });
    const { client } = await connectHttp(server.url);
    await client.tools();
    schemaVersion = 2; // the server changed the tool after we listed it
    const result = await client.callTool("t", { region: "ap-south" });
    expect(result.content).toEqual([{ type: "text", text: "ok" }]);
    expect(server.exchanges.map((e) => e.method)).toEqual([
      "server/discover",
      "tools/list",
      "tools/call",
      "tools/list",
      "tools/call",
    ]);
    const [first, second] = server.of("tools/call");
    expect(first?.headers["mcp-param-region"]).toBeUndefined();
    expect(second?.headers["mcp-param-region"]).toBe("ap-south");
    expect(second?.id).not.toBe(first?.id);
  });

  it("gives up after one retry when the mismatch persists", async () => {
    const server = await fakeServer({
      "tools/list": () => complete({ tools: [{ name: "t", inputSchema: { type: "object" } }] }),
      "tools/call": () => {
        throw new RouteError(-32020, "Header mismatch", undefined, 400);
      },
    });
    const { client } = await connectHttp(server.url);
    const error = await client.callTool("t", {}).catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32020);
    expect(server.of("tools/call")).toHaveLength(2);
  });
});

describe("methods 2026-07-28 removed", () => {
  it("maps subscribe to a subscriptions/listen stream instead of resources/subscribe", async () => {
    const server = await fakeServer({
      "subscriptions/listen": (params, exchange, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const ack = {
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: {
            _meta: { "io.modelcontextprotocol/subscriptionId": exchange.id },
            notifications: params.notifications,
          },
        };
        res.write(`data: ${JSON.stringify(ack)}\n\n`);
        return undefined;
      },
    });
    const { client } = await connectHttp(server.url);
    await client.subscribe("file:///a");
    await client.subscribe("file:///b");
    expect(server.of("resources/subscribe")).toHaveLength(0);
    const listens = server.of("subscriptions/listen").map((e) => e.params.notifications);
    expect(listens).toEqual([
      { resourceSubscriptions: ["file:///a"] },
      { resourceSubscriptions: ["file:///a", "file:///b"] },
    ]);
    await client.unsubscribe("file:///a");
    expect(server.of("subscriptions/listen").at(-1)?.params.notifications).toEqual({
      resourceSubscriptions: ["file:///b"],
    });
    expect(server.of("resources/unsubscribe")).toHaveLength(0);
  });
});
