import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Running, requireBuild, start, stopAll, until } from "../cli-call/helpers.js";

// `mcpkit serve --port … --max-sessions N --idle-timeout D`: the endpoint's session limits
// from the command line.

beforeAll(requireBuild);
afterEach(stopAll);

async function serve(...extra: string[]): Promise<{ url: string; server: Running }> {
  const server = start(["serve", "everything", "--port", "0", ...extra]);
  await until(() => /serving MCP on (http:\/\/\S+\/mcp)/.test(server.stderr), 8000, "serve to print its URL");
  return { url: /serving MCP on (http:\/\/\S+\/mcp)/.exec(server.stderr)?.[1] as string, server };
}

const post = (url: string, body: unknown, session?: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session && { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }),
    },
    body: JSON.stringify(body),
  });

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "caps", version: "1" } },
};

/** Opens a session and uses it once (so it is never ended to make room). */
async function openUsed(url: string): Promise<Response | string> {
  const response = await post(url, initialize);
  const session = response.headers.get("mcp-session-id");
  if (!session) return response;
  await response.text();
  await (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
  await (await post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, session)).text();
  return session;
}

describe("mcpkit serve: --max-sessions and --idle-timeout", () => {
  it("--max-sessions caps the sessions, a tenth of them per client", async () => {
    const { url } = await serve("--max-sessions", "30");
    for (let i = 0; i < 3; i++) expect(typeof (await openUsed(url))).toBe("string");
    const refused = (await openUsed(url)) as Response;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("the limit is 3");
  });

  it("--idle-timeout ends a session left idle that long", async () => {
    const { url } = await serve("--idle-timeout", "1s");
    const session = (await openUsed(url)) as string;
    const ping = async () => (await post(url, { jsonrpc: "2.0", id: 3, method: "ping" }, session)).status;
    expect(await ping()).toBe(200);
    // Each ping is activity: polled less often than the idle timeout and its 1 s sweep allow.
    await expect.poll(ping, { timeout: 15_000, interval: 2500 }).toBe(404);
  });
});
