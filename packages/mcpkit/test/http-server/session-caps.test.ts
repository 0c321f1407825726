import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "../../src/server/index.js";
import { ACCEPT_BOTH, initializeBody, serveHttp, sessionHeaders } from "./helpers.js";

/**
 * Two clients told apart by their address: all of 127.0.0.0/8 is loopback, so a client
 * binding 127.0.0.2 reaches the server on 127.0.0.1 from another address.
 */
const CLIENT_A = "127.0.0.1";
const CLIENT_B = "127.0.0.2";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function postFrom(localAddress: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      url,
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...headers },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          data += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function start(options: { maxSessions: number; maxSessionsPerClient?: number }) {
  served = await serveHttp(createServer({ name: "caps", version: "1" }), options);
  const url = served.url;
  /** initialize (+ initialized) from `address`; the session id, or the refusal. */
  async function open(address: string): Promise<{ session?: string; refusal?: Answer }> {
    const answer = await postFrom(address, url, initializeBody());
    const session = answer.headers["mcp-session-id"];
    if (answer.status !== 200 || typeof session !== "string") return { refusal: answer };
    const ack = await postFrom(
      address,
      url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      sessionHeaders(session),
    );
    expect(ack.status).toBe(202);
    return { session };
  }
  const use = (address: string, session: string, id = 2) =>
    postFrom(address, url, { jsonrpc: "2.0", id, method: "ping" }, sessionHeaders(session));
  return { open, use };
}

describe("Streamable HTTP: session caps", () => {
  it("one client opening many sessions cannot lock out a second client", async () => {
    const { open, use } = await start({ maxSessions: 20, maxSessionsPerClient: 5 });
    for (let i = 0; i < 60; i++) {
      const { refusal } = await open(CLIENT_A);
      expect(refusal).toBeUndefined();
    }
    // Client A holds no more than its share: its oldest unused sessions made room.
    expect(served?.handler.sessionCount).toBeLessThanOrEqual(5);
    const b = await open(CLIENT_B);
    expect(b.refusal).toBeUndefined();
    expect((await use(CLIENT_B, b.session as string)).status).toBe(200);
  });

  it("refuses a client at its cap of used sessions with a readable 503 and Retry-After, and serves the others", async () => {
    const { open, use } = await start({ maxSessions: 20, maxSessionsPerClient: 3 });
    const used: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { session } = await open(CLIENT_A);
      expect((await use(CLIENT_A, session as string)).status).toBe(200);
      used.push(session as string);
    }
    const { refusal } = await open(CLIENT_A);
    expect(refusal?.status).toBe(503);
    expect(Number(refusal?.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refusal?.body ?? "")).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32603, message: expect.stringMatching(/Too many sessions from this client \(the limit is 3\)/) },
    });
    // Sessions in use are never ended to make room.
    for (const session of used) expect((await use(CLIENT_A, session, 3)).status).toBe(200);
    expect((await open(CLIENT_B)).refusal).toBeUndefined();
  });

  it("at the total cap, ends the oldest never-used session to make room, and refuses only when every session is in use", async () => {
    const { open, use } = await start({ maxSessions: 3, maxSessionsPerClient: 3 });
    const a1 = (await open(CLIENT_A)).session as string;
    const a2 = (await open(CLIENT_A)).session as string;
    const a3 = (await open(CLIENT_A)).session as string;
    expect((await use(CLIENT_A, a2)).status).toBe(200);
    expect((await use(CLIENT_A, a3)).status).toBe(200);
    const b1 = (await open(CLIENT_B)).session as string;
    expect(b1).toBeDefined();
    // a1 was never used: it made room. The used ones live.
    expect((await use(CLIENT_A, a1)).status).toBe(404);
    expect((await use(CLIENT_A, a2, 4)).status).toBe(200);
    expect((await use(CLIENT_B, b1)).status).toBe(200);
    const refused = await open(CLIENT_B);
    expect(refused.refusal?.status).toBe(503);
    expect(JSON.parse(refused.refusal?.body ?? "").error.message).toMatch(/Too many sessions \(the limit is 3\)/);
  });
});
