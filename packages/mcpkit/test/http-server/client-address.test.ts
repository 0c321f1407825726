import { describe, expect, it } from "vitest";
import { createStreamableHttpHandler, routeByPath } from "../../src/endpoints/http/index.js";
import { createServer } from "../../src/server/index.js";
import { ACCEPT_BOTH, initializeBody, sessionHeaders } from "./helpers.js";

// A Web Request carries no client address: a runtime that knows it passes it as
// `fetch(request, { clientAddress })` (mcpkit's Node adapter and routeByPath do), and the
// Streamable HTTP handler then caps sessions per address as on its Node path.

describe("the Web handler and the client's address", () => {
  it("caps sessions per the address passed to fetch(), and cannot tell clients apart without it", async () => {
    const handler = createStreamableHttpHandler(createServer({ name: "caps", version: "1" }), {
      maxSessions: 10,
      maxSessionsPerClient: 1,
    });
    const post = (body: unknown, clientAddress?: string, headers: Record<string, string> = {}) =>
      handler.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers },
          body: JSON.stringify(body),
        }),
        clientAddress === undefined ? undefined : { clientAddress },
      );
    /** initialize, initialized and a ping: a session in use, which is never evicted to make room. */
    const openUsed = async (clientAddress?: string) => {
      const answer = await post(initializeBody(), clientAddress);
      const session = answer.headers.get("mcp-session-id");
      await answer.body?.cancel();
      if (answer.status !== 200 || !session) return answer.status;
      const headers = sessionHeaders(session);
      await (
        await post({ jsonrpc: "2.0", method: "notifications/initialized" }, clientAddress, headers)
      ).body?.cancel();
      await (await post({ jsonrpc: "2.0", id: 2, method: "ping" }, clientAddress, headers)).body?.cancel();
      return answer.status;
    };
    try {
      expect(await openUsed("203.0.113.7")).toBe(200);
      expect(await openUsed("203.0.113.7")).toBe(503);
      expect(await openUsed("::ffff:203.0.113.7")).toBe(503);
      expect(await openUsed("198.51.100.7")).toBe(200);
      // Without an address every client may open up to the total.
      expect(await openUsed()).toBe(200);
      expect(await openUsed()).toBe(200);
    } finally {
      await handler.close();
    }
  });

  it("routeByPath passes the address on to the handler it picks, on its Web path", async () => {
    const router = routeByPath(() => ({
      fetch: async (_request: Request, info?: { clientAddress?: string }) =>
        new Response(info?.clientAddress ?? "none"),
    }));
    const ask = (info?: { clientAddress?: string }) => router.fetch(new Request("http://localhost/x"), info);
    expect(await (await ask({ clientAddress: "203.0.113.7" })).text()).toBe("203.0.113.7");
    expect(await (await ask()).text()).toBe("none");
  });
});
