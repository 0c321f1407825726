import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../../src/server/index.js";
import { ACCEPT_BOTH, initializeBody, serveHttp, sessionHeaders } from "./helpers.js";

function everythingLite() {
  const server = createServer({ name: "http", version: "1" });
  server.tool("echo", { input: z.object({ text: z.string() }) }, ({ text }) => text);
  return server;
}

let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const call = (id: number, name = "echo", args: Record<string, unknown> = { text: "hi" }) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("Streamable HTTP: the MCP endpoint", () => {
  it("answers initialize as JSON with a session id of visible ASCII from a CSPRNG", async () => {
    served = await serveHttp(everythingLite());
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const response = await served.post(initializeBody());
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      const id = response.headers.get("mcp-session-id") ?? "";
      expect(id).toMatch(/^[\x21-\x7e]{40,}$/);
      ids.add(id);
      expect(await response.json()).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    }
    expect(ids.size).toBe(3);
  });

  it("answers a request as JSON when nothing is sent before the result, and notifications with 202", async () => {
    served = await serveHttp(everythingLite());
    const session = await served.open();
    const response = await served.post(call(2), sessionHeaders(session));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "hi" }] },
    });
    const note = await served.post(
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      sessionHeaders(session),
    );
    expect(note.status).toBe(202);
    expect(await note.text()).toBe("");
  });

  it("requires a session id after initialize (400) and forgets ended sessions (404)", async () => {
    served = await serveHttp(everythingLite());
    const session = await served.open();
    expect((await served.post(call(2))).status).toBe(400);
    expect((await served.post(call(2), sessionHeaders("not-a-session"))).status).toBe(404);
    const deleted = await fetch(served.url, { method: "DELETE", headers: { "mcp-session-id": session } });
    expect(deleted.status).toBe(204);
    const after = await served.post(call(3), sessionHeaders(session));
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("initialize a new one") },
    });
    expect(served.handler.sessionCount).toBe(0);
  });

  it("answers a second initialize on a session with an error carrying its own id", async () => {
    served = await serveHttp(everythingLite());
    const session = await served.open();
    const again = await served.post(initializeBody("again"), sessionHeaders(session));
    expect(await again.json()).toMatchObject({
      id: "again",
      error: { code: -32600, message: expect.stringContaining("already initialized") },
    });
  });

  it("checks Accept (406), Content-Type (415), body size (413) and JSON (400 with -32700)", async () => {
    served = await serveHttp(everythingLite(), { maxBodyBytes: 1024 });
    const session = await served.open();
    const headers = sessionHeaders(session);
    const wrongAccept = await fetch(served.url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(call(2)),
    });
    expect(wrongAccept.status).toBe(406);
    const wrongType = await fetch(served.url, {
      method: "POST",
      headers: { ...headers, "content-type": "text/plain", accept: ACCEPT_BOTH },
      body: JSON.stringify(call(2)),
    });
    expect(wrongType.status).toBe(415);
    const tooBig = await served.post(call(2, "echo", { text: "x".repeat(2000) }), headers);
    expect(tooBig.status).toBe(413);
    const malformed = await served.post("{not json", headers);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const invalid = await served.post({ jsonrpc: "2.0", id: 5 }, headers);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { code: -32600 } });
    // The session survives all of that.
    expect((await served.post(call(9), headers)).status).toBe(200);
  });

  it("refuses an unsupported MCP-Protocol-Version with 400", async () => {
    served = await serveHttp(everythingLite());
    const session = await served.open();
    const response = await served.post(call(2), { "mcp-session-id": session, "mcp-protocol-version": "1999-01-01" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining("1999-01-01") } });
  });

  it("rejects a foreign Host or Origin with 403 (DNS rebinding) and accepts local ones", async () => {
    served = await serveHttp(everythingLite());
    const { request } = await import("node:http");
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          served?.url as string,
          { method: "POST", headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(initializeBody()));
      });
    const port = new URL(served.url).port;
    expect(await status({ host: "evil.example.com" })).toBe(403);
    expect(await status({ host: `localhost:${port}`, origin: "http://evil.example.com" })).toBe(403);
    expect(await status({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
    expect(await status({ host: `127.0.0.1:${port}` })).toBe(200);
    expect(await status({ host: `[::1]:${port}` })).toBe(200);
    // Allowed Host values are remembered; a foreign one still is not, nor an allowed one with a foreign Origin.
    expect(await status({ host: `127.0.0.1:${port}` })).toBe(200);
    expect(await status({ host: "evil.example.com" })).toBe(403);
    expect(await status({ host: `evil.example.com:${port}` })).toBe(403);
    expect(await status({ host: `127.0.0.1:${port}`, origin: "http://evil.example.com" })).toBe(403);
  });

  it("exposes Mcp-Session-Id to browsers when CORS is enabled, and answers preflights", async () => {
    served = await serveHttp(everythingLite(), { cors: { origins: ["http://localhost:5173"] } });
    const preflight = await fetch(served.url, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-session-id");
    const response = await served.post(initializeBody(), { origin: "http://localhost:5173" });
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
  });

  it("answers a 2025-03-26 batch with one JSON array", async () => {
    served = await serveHttp(everythingLite());
    const session = await served.open({}, "2025-03-26");
    const response = await served.post([call(2, "echo", { text: "a" }), call(3, "echo", { text: "b" })], {
      "mcp-session-id": session,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number; result: { content: { text: string }[] } }[];
    expect(body.map((r) => [r.id, r.result.content[0]?.text])).toEqual([
      [2, "a"],
      [3, "b"],
    ]);
  });

  it("refuses a batch on a revision without batches with 400 (transports §Sending Messages)", async () => {
    served = await serveHttp(everythingLite());
    const session = await served.open();
    const response = await served.post([call(2)], sessionHeaders(session));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("batches") },
    });
  });

  it("refuses a batch on a 2025-11-25 session without MCP-Protocol-Version: the session says the revision", async () => {
    served = await serveHttp(everythingLite());
    const session = await served.open();
    const response = await served.post([call(2), call(3)], { "mcp-session-id": session });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("2025-11-25 does not allow JSON-RPC batches") },
    });
    // A header naming 2025-03-26 does not change what the session negotiated.
    const claimed = await served.post([call(4)], { "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" });
    expect(claimed.status).toBe(400);
    // One message at a time is served as before.
    expect((await served.post(call(5), { "mcp-session-id": session })).status).toBe(200);
  });

  it("serves a batch with neither a session nor MCP-Protocol-Version as 2025-03-26, and refuses one whose header forbids it", async () => {
    served = await serveHttp(everythingLite(), { sessions: false });
    const response = await served.post([call(2, "echo", { text: "a" }), call(3, "echo", { text: "b" })]);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number; result: { content: { text: string }[] } }[];
    expect(body.map((r) => [r.id, r.result.content[0]?.text])).toEqual([
      [2, "a"],
      [3, "b"],
    ]);
    const refused = await served.post([call(4)], { "mcp-protocol-version": "2025-06-18" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("2025-06-18") },
    });
  });

  it("serves each POST on its own in stateless mode", async () => {
    served = await serveHttp(everythingLite(), { sessions: false });
    const init = await served.post(initializeBody());
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(await init.json()).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
    const response = await served.post(call(2), { "mcp-protocol-version": "2025-06-18" });
    expect(await response.json()).toMatchObject({ id: 2, result: { content: [{ text: "hi" }] } });
    expect((await fetch(served.url, { headers: { accept: "text/event-stream" } })).status).toBe(405);
    expect(served.handler.sessionCount).toBe(0); // a session would be made while its POST is served
  });
});
