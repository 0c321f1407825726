import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Balancer, type ClusterNode, startNginx, startNode } from "../cluster/cluster.js";
import { assertBuilt } from "../interop/helpers.js";

// `mcpkit serve --trust-proxy` behind a real nginx (which appends the caller's address to
// X-Forwarded-For): sessions are capped per client (--max-sessions 10: one each), and two
// callers reaching nginx from two addresses are two clients. A caller reaching the node
// directly cannot pass for another by sending the header itself.

let node: ClusterNode;
let balancer: Balancer;

beforeAll(async () => {
  assertBuilt();
  node = await startNode({ args: ["--max-sessions", "10", "--trust-proxy", "127.0.0.1"] });
  balancer = await startNginx([node.port]);
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  await node?.kill();
});

/** One POST to `url` over a connection from `localAddress` (all of 127.0.0.0/8 is this host). */
function post(
  url: string,
  body: unknown,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; session: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        localAddress,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, session: res.headers["mcp-session-id"] as string, text }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "caller", version: "1" } },
};

/** Opens a session from `address` and uses it (so that it is never evicted to make room); its initialize status. */
async function openUsedSession(url: string, address: string, headers: Record<string, string> = {}): Promise<number> {
  const opened = await post(url, initialize, address, headers);
  if (opened.status !== 200) return opened.status;
  const session = { ...headers, "mcp-session-id": opened.session as string, "mcp-protocol-version": "2025-11-25" };
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, address, session);
  const listed = await post(url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, address, session);
  expect(listed.status).toBe(200);
  return opened.status;
}

describe("mcpkit serve --trust-proxy behind nginx", () => {
  it("counts two callers apart by the address nginx forwards", async () => {
    expect(await openUsedSession(balancer.url, "127.0.0.2")).toBe(200);
    // 127.0.0.2 is at its cap (one used session) …
    const refused = await post(balancer.url, initialize, "127.0.0.2");
    expect(refused.status).toBe(503);
    expect(refused.text).toContain("Too many sessions from this client");
    // … while 127.0.0.3, through the same nginx, is another client.
    expect(await openUsedSession(balancer.url, "127.0.0.3")).toBe(200);
  }, 30_000);

  it("ignores X-Forwarded-For from a caller that is not the trusted proxy", async () => {
    const direct = `http://127.0.0.1:${node.port}/mcp`;
    expect(await openUsedSession(direct, "127.0.0.4", { "x-forwarded-for": "198.51.100.1" })).toBe(200);
    // Another claimed address changes nothing: the caller is 127.0.0.4, at its cap.
    const again = await post(direct, initialize, "127.0.0.4", { "x-forwarded-for": "198.51.100.2" });
    expect(again.status).toBe(503);
  }, 30_000);
});
