import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readGatewayHealth } from "./gateway-health.js";

// The inspector reads a gateway's /healthz beside the HTTP server it is connected to: a
// gateway's answer becomes the Server view's table; anything else (no such path, a
// redirect, another server's health, a stdio server) is no gateway, and says why.

const HEALTH = {
  status: "degraded",
  upstreams: [
    { name: "docs", transport: "stdio", state: "ready", restarts: 0, perSession: false, since: "2026-11-29T09:58:40Z" },
    {
      name: "tickets",
      transport: "stdio",
      state: "restarting",
      restarts: 2,
      perSession: false,
      since: "2026-11-29T10:00:00Z",
      lastError: "stopped: Server process was killed by SIGKILL; restarting it",
      lastErrorAt: "2026-11-29T10:00:00Z",
      extra: "not kept",
    },
  ],
};

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** An HTTP server on 127.0.0.1 answering as `answer` says; the requests it saw, with their headers. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { path: string | undefined; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url, authorization: req.headers.authorization });
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => server.close());
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

describe("a gateway's health, beside the inspected HTTP server", () => {
  it("is read from /healthz, its known fields only, without the connection's headers", async () => {
    const { origin, seen } = await serve((req, res) =>
      req.url === "/healthz" ? json(res, 200, HEALTH) : json(res, 404, {}),
    );
    const answer = await readGatewayHealth({
      kind: "http",
      url: `${origin}/triage`,
      headers: { authorization: "Bearer secret" },
    });
    if (!("health" in answer)) throw new Error(answer.none);
    expect(answer.health.url).toBe(`${origin}/healthz`);
    expect(answer.health.status).toBe("degraded");
    expect(answer.health.upstreams[1]).toEqual({
      name: "tickets",
      transport: "stdio",
      state: "restarting",
      restarts: 2,
      perSession: false,
      since: "2026-11-29T10:00:00Z",
      lastError: "stopped: Server process was killed by SIGKILL; restarting it",
      lastErrorAt: "2026-11-29T10:00:00Z",
    });
    expect(seen).toEqual([{ path: "/healthz", authorization: undefined }]);
  });

  it("is looked for beside the endpoint first, for a gateway behind a path prefix", async () => {
    const { origin, seen } = await serve((req, res) =>
      req.url === "/team/healthz" ? json(res, 200, HEALTH) : json(res, 404, {}),
    );
    const answer = await readGatewayHealth({ kind: "http", url: `${origin}/team/mcp`, headers: {} });
    expect("health" in answer && answer.health.url).toBe(`${origin}/team/healthz`);
    expect(seen.map((s) => s.path)).toEqual(["/team/healthz"]);
  });

  it("is none where no gateway answers: a 404, a redirect (not followed), another server's health, a stdio server", async () => {
    const elsewhere = await serve((_req, res) => json(res, 200, HEALTH));
    const cases: [(req: IncomingMessage, res: ServerResponse) => void, RegExp][] = [
      [(_req, res) => json(res, 404, { error: "not found" }), /HTTP 404/],
      [
        (_req, res) => {
          res.writeHead(302, { location: `${elsewhere.origin}/healthz` });
          res.end();
        },
        /HTTP 302/,
      ],
      [(_req, res) => json(res, 200, { status: "ok", checks: { db: "up" } }), /not a gateway's answer/],
      [(_req, res) => json(res, 200, { status: "ok", upstreams: [{ name: 1 }] }), /not a gateway's answer/],
    ];
    for (const [answer, why] of cases) {
      const { origin } = await serve(answer);
      const read = await readGatewayHealth({ kind: "http", url: `${origin}/mcp`, headers: {} });
      expect("none" in read && read.none).toMatch(why);
    }
    expect(elsewhere.seen).toEqual([]);
    const stdio = await readGatewayHealth({ kind: "stdio", command: "mcpkit", args: ["gateway"], env: {} });
    expect("none" in stdio && stdio.none).toMatch(/serves HTTP/);
  });
});
