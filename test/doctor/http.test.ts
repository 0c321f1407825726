import { createSseHandler, createStreamableHttpHandler, type Listening, listen, routeByPath } from "mcpkit/http";
import { createServer, type McpServer } from "mcpkit/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { diagnose } from "../../packages/cli/src/doctor/index.js";
import { check, httpServer, outline } from "./helpers.js";

// The doctor against HTTP servers on 127.0.0.1, each written to fail one way: the wrong
// path, the deprecated transport, a web page, nothing listening, a Host check, silence.

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

function mcpServer(options: { legacyOnly?: boolean; failTools?: boolean } = {}): McpServer {
  const server = createServer({
    name: "http-fixture",
    version: "1.0.0",
    onError: () => {},
    ...(options.legacyOnly && { revisions: ["2025-11-25"] }),
  });
  server.tool(
    "add",
    { description: "Adds", input: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => `${a + b}`,
  );
  if (options.failTools)
    server.use(async (ctx, next) => {
      if (ctx.method === "tools/list") throw new Error("the catalog is offline");
      return next();
    });
  return server;
}

/** Streamable HTTP at /mcp, and (unless `sseOnly` leaves it out, or `streamableOnly` the other) HTTP+SSE at /sse. */
async function serve(server: McpServer, paths: { mcp?: boolean; sse?: boolean } = { mcp: true }): Promise<Listening> {
  const mcp = createStreamableHttpHandler(server);
  const sse = createSseHandler(server);
  const listening = await listen(
    routeByPath((path) =>
      paths.mcp && path === "/mcp" ? mcp : paths.sse && (path === "/sse" || path === "/messages") ? sse : undefined,
    ),
  );
  open.push(listening);
  return listening;
}

describe("doctor over HTTP", () => {
  it("passes a clean Streamable HTTP server (2026-07-28), step by step", async () => {
    const { url } = await serve(mcpServer());
    const report = await diagnose({ kind: "http", url: new URL("/mcp", url).href, headers: {} });
    expect(outline(report)).toEqual([
      "reachable: ok",
      "endpoint: ok",
      "legacy-sse: ok",
      "handshake: ok",
      "revision: ok",
      "legacy-clients: ok",
      "tools: ok",
      "prompts: ok",
      "resources: ok",
      "resource-templates: ok",
    ]);
    expect(report.ok).toBe(true);
    expect(check(report, "endpoint").message).toBe(
      `${new URL("/mcp", url).href} answers MCP (POST: HTTP 200 (application/json))`,
    );
    expect(check(report, "revision").message).toBe("2026-07-28 (modern era: server/discover, no session)");
    expect(check(report, "prompts").message).toBe("No prompts: the server's capabilities do not offer them");
  });

  it("passes a 2025-11-25 server with sessions: the initialize handshake over Streamable HTTP", async () => {
    const { url } = await serve(mcpServer({ legacyOnly: true }));
    const report = await diagnose({ kind: "http", url: new URL("/mcp", url).href, headers: {} });
    expect(report.ok).toBe(true);
    expect(check(report, "revision").message).toBe("2025-11-25 (legacy era: the initialize handshake)");
    expect(check(report, "handshake").message).toMatch(/answered initialize in \d+ ms/);
    expect(check(report, "tools").message).toBe("1 tool: add");
  });

  it("the wrong path: tries the origin's /mcp and names it (and still fails)", async () => {
    const { url } = await serve(mcpServer());
    const report = await diagnose({ kind: "http", url: url.href, headers: {} });
    expect(outline(report)).toEqual(["reachable: ok", "endpoint: error"]);
    expect(report.ok).toBe(false);
    const endpoint = check(report, "endpoint");
    expect(endpoint.message).toBe(
      `${url.href} is not an MCP endpoint: it answers HTTP 404 (text/plain): Not found. ${new URL("/mcp", url).href} answers MCP (Streamable HTTP)`,
    );
    expect(endpoint.fix).toBe(`Use ${new URL("/mcp", url).href}: it answers MCP (Streamable HTTP).`);
  });

  it("the legacy HTTP+SSE transport at the URL works, with a warning that it is deprecated", async () => {
    const { url } = await serve(mcpServer(), { sse: true });
    const report = await diagnose({ kind: "http", url: new URL("/sse", url).href, headers: {} });
    expect(report.ok).toBe(true);
    const legacy = check(report, "legacy-sse");
    expect(legacy).toMatchObject({ ok: false, severity: "warning" });
    expect(legacy.message).toContain("the HTTP+SSE transport of 2024-11-05, which is deprecated");
    expect(check(report, "endpoint").message).toContain("answers MCP (GET: HTTP 200 (text/event-stream))");
    expect(check(report, "revision").message).toBe("2025-11-25 (legacy era: the initialize handshake)");
  });

  it("the origin of a server that speaks only HTTP+SSE: names /sse", async () => {
    const { url } = await serve(mcpServer(), { sse: true });
    const report = await diagnose({ kind: "http", url: url.href, headers: {} });
    expect(report.ok).toBe(false);
    expect(check(report, "endpoint").fix).toBe(
      `Use ${new URL("/sse", url).href}: it answers MCP over the HTTP+SSE transport (2024-11-05).`,
    );
  });

  it("a web page where the endpoint should be, and no MCP on the origin at all", async () => {
    const site = await httpServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!doctype html><title>Acme</title><h1>Welcome</h1>");
    });
    open.push(site);
    const report = await diagnose({ kind: "http", url: site.url, headers: {} });
    expect(check(report, "endpoint").message).toBe(
      `${site.url} is not an MCP endpoint: it answers HTTP 200 (text/html): <!doctype html><title>Acme</title><h1>Welcome</h1>. No other path of ${site.origin} answers MCP either (tried /sse)`,
    );
    expect(report.ok).toBe(false);
    const root = await diagnose({ kind: "http", url: `${site.origin}/`, headers: {} });
    expect(check(root, "endpoint").message).toContain("(tried /mcp, /sse)");
  });

  it("a server that fails on the request (5xx): its own error, not a wrong address", async () => {
    const broken = await httpServer((_request, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<h1>Bad Gateway</h1>");
    });
    open.push(broken);
    const report = await diagnose({ kind: "http", url: broken.url, headers: {} });
    const endpoint = check(report, "endpoint");
    expect(endpoint.message).toBe(
      `${broken.url} fails: it answers HTTP 502 (text/html): <h1>Bad Gateway</h1>. No other path of ${broken.origin} answers MCP either (tried /sse)`,
    );
    expect(endpoint.fix).toContain("a 5xx is its own error");
  });

  it("https:// to a server that speaks plain HTTP: says so, and the URL to use", async () => {
    const { url } = await serve(mcpServer());
    const report = await diagnose({ kind: "http", url: `https://${url.host}/mcp`, headers: {} });
    expect(outline(report)).toEqual(["reachable: error"]);
    const reachable = check(report, "reachable");
    expect(reachable.message).toMatch(
      new RegExp(`^TLS with ${url.host} failed \\(ERR_SSL_\\w+\\): the server seems to speak plain HTTP$`),
    );
    expect(reachable.fix).toBe(`Use http://${url.host}/mcp: the server does not speak TLS on that port.`);
  });

  it("nothing listening: the connection is refused, in those words", async () => {
    const gone = await serve(mcpServer());
    const url = new URL("/mcp", gone.url).href;
    await gone.close();
    open.pop();
    const report = await diagnose({ kind: "http", url, headers: {} });
    expect(outline(report)).toEqual(["reachable: error"]);
    expect(check(report, "reachable").message).toBe(
      `Nothing accepts connections at 127.0.0.1:${gone.url.port} (connection refused)`,
    );
    expect(check(report, "reachable").fix).toBe("Start the server, or correct the port.");
  });

  it("a port fetch refuses (6666, as browsers do): said so, with another port as the fix", async () => {
    const report = await diagnose({ kind: "http", url: "http://127.0.0.1:6666/mcp", headers: {} });
    expect(outline(report)).toEqual(["reachable: error"]);
    expect(check(report, "reachable").message).toBe(
      'fetch refuses to connect to 127.0.0.1:6666: port 6666 is a "bad port" of the Fetch standard (as browsers have it)',
    );
    expect(check(report, "reachable").fix).toContain("Serve on another port");
  });

  it("a Host check that refuses the client: HTTP 403 and what to look at", async () => {
    const server = mcpServer();
    const listening = await listen(createStreamableHttpHandler(server, { allowedHosts: ["mcp.example.com"] }));
    open.push(listening);
    const report = await diagnose({ kind: "http", url: new URL("/mcp", listening.url).href, headers: {} });
    const endpoint = check(report, "endpoint");
    expect(endpoint.message).toBe(
      `${listening.url.href}mcp refuses the request: HTTP 403 (application/json): Forbidden: Host ${listening.url.host} is not allowed`,
    );
    expect(endpoint.fix).toContain("its Host or Origin check");
    expect(report.ok).toBe(false);
  });

  it("a server that never answers: the step's timeout", async () => {
    const silent = await httpServer(() => {});
    open.push(silent);
    const report = await diagnose({ kind: "http", url: silent.url, headers: {} }, { timeoutMs: 500 });
    expect(outline(report)).toEqual(["reachable: ok", "handshake: error"]);
    expect(check(report, "handshake").message).toContain("No answer to server/discover or initialize within 500 ms");
  });

  it("a list the server offers but cannot answer", async () => {
    const { url } = await serve(mcpServer({ failTools: true }));
    const report = await diagnose({ kind: "http", url: new URL("/mcp", url).href, headers: {} });
    expect(check(report, "tools")).toMatchObject({ ok: false, message: "tools/list failed: Internal error" });
    expect(report.ok).toBe(false);
  });
});
