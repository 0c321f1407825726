import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { initialize, perTestAuthorizationServer, post, protectedMcp } from "./helpers.js";

// An HTTP session belongs to the principal that opened it, for every method: another
// caller holding the session id can neither post to it, listen on it (GET) nor end it
// (DELETE). To everyone else the id is as unknown as a made-up one: 404.

const fixture = perTestAuthorizationServer();

async function opened() {
  const { as, closers } = fixture;
  const s = createServer({ name: "bound", version: "1" });
  s.tool("ping", {}, () => "pong");
  const mcp = await protectedMcp(s, as, { scopesSupported: [] });
  closers.push(mcp.close);
  const token = (sub: string) => as.sign({ sub, scope: "" }, { audience: mcp.url });
  const ada = { authorization: `Bearer ${await token("user-ada")}` };
  const mallory = { authorization: `Bearer ${await token("user-mallory")}` };
  const response = await post(mcp.url, initialize, ada);
  expect(response.status).toBe(200);
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id") as string;
  const send = (method: string, who: Record<string, string>) =>
    fetch(mcp.url, {
      method,
      headers: { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25", "mcp-session-id": id, ...who },
    });
  const list = (who: Record<string, string>) =>
    post(
      mcp.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { ...who, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
    );
  return { ada, mallory, send, list, url: mcp.url, id };
}

describe("a session bound to its principal", () => {
  it("refuses another principal's GET with 404, and opens the stream for its own", async () => {
    const { ada, mallory, send } = await opened();
    const stolen = await send("GET", mallory);
    expect(stolen.status).toBe(404);
    await stolen.body?.cancel();
    const own = await send("GET", ada);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toContain("text/event-stream");
    await own.body?.cancel();
  });

  it("refuses another principal's DELETE with 404 and keeps the session; its own DELETE ends it", async () => {
    const { ada, mallory, send, list } = await opened();
    const stolen = await send("DELETE", mallory);
    expect(stolen.status).toBe(404);
    const still = await list(ada);
    expect(still.status).toBe(200);
    await still.body?.cancel();
    expect((await send("DELETE", ada)).status).toBe(204);
    const gone = await list(ada);
    expect(gone.status).toBe(404);
    await gone.body?.cancel();
  });

  it("answers a GET or DELETE that lacks what it needs before any session is looked up", async () => {
    const { ada, url, id } = await opened();
    const ask = async (method: string, headers: Record<string, string>) => {
      const response = await fetch(url, { method, headers: { ...ada, ...headers } });
      return { status: response.status, body: (await response.json()) as { error: { message: string } } };
    };
    const sse = { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25" };
    expect(await ask("GET", { ...sse, accept: "application/json" })).toMatchObject({
      status: 406,
      body: { error: { message: "Not Acceptable: Accept must list text/event-stream" } },
    });
    for (const method of ["GET", "DELETE"]) {
      expect(await ask(method, sse)).toMatchObject({
        status: 400,
        body: { error: { message: "Bad Request: Mcp-Session-Id header is required" } },
      });
    }
    const wrongVersion = await ask("GET", { ...sse, "mcp-session-id": id, "mcp-protocol-version": "1999-01-01" });
    expect(wrongVersion.status).toBe(400);
  });
});
