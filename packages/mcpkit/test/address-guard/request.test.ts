import type { LookupAddress } from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "../../src/address-guard/fetch.js";
import { AddressRefused, type Resolver } from "../../src/address-guard/lookup.js";
import { guardedRequest } from "../../src/address-guard/request.js";

// A fetch made on someone else's say-so: the name resolved, every address judged, the
// connection made to the address judged (no second lookup to rebind), and every redirect
// hop judged again. The operator's own origin is reached as configured.

interface Seen {
  path: string;
  host: string | undefined;
}

async function start(
  routes: Record<string, (port: number) => { status: number; headers?: Record<string, string>; body?: string }>,
) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? "/", host: req.headers.host });
    const route = routes[req.url ?? "/"];
    if (!route) return res.writeHead(404).end();
    const { status, headers, body } = route((server.address() as AddressInfo).port);
    res.writeHead(status, headers).end(body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}`, seen };
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

const limits = { redirects: 5, maxBytes: 1 << 20, timeoutMs: 5000 } as const;

let target: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  target = await start({ "/doc": () => ({ status: 200, body: "the document" }) });
});

describe("a guarded request", () => {
  it("refuses a name that resolves to loopback, after resolving it, and connects nowhere", async () => {
    const before = target.seen.length;
    const refused = guardedRequest(new URL(`http://localhost:${target.port}/doc`), limits);
    await expect(refused).rejects.toBeInstanceOf(AddressRefused);
    await expect(refused).rejects.toThrow(
      "localhost resolves to a private or reserved address: 127.0.0.1 (loopback, 127.0.0.0/8)",
    );
    expect(target.seen.length).toBe(before);
  });

  it("refuses a name when any one of its addresses is special, even if another is public", async () => {
    const resolver: Resolver = (_name, _options, callback) =>
      callback(null, [
        { address: "8.8.8.8", family: 4 },
        { address: "::ffff:10.0.0.1", family: 6 },
      ]);
    await expect(
      guardedRequest(new URL("http://api.example.test/doc"), { ...limits, policy: { lookup: resolver } }),
    ).rejects.toThrow("api.example.test resolves to a private or reserved address: ::ffff:a00:1 (an IPv4-mapped");
  });

  it.each([
    `http://[::ffff:7f00:1]:PORT/doc`,
    `http://[::7f00:1]:PORT/doc`,
    `http://[::ffff:0:7f00:1]:PORT/doc`,
    `http://0x7f.1:PORT/doc`,
    `http://2130706433:PORT/doc`,
    `http://0177.0.0.01:PORT/doc`,
    `http://[fec0::1]:PORT/doc`,
  ])("refuses the address literal %s without connecting", async (spelled) => {
    const before = target.seen.length;
    const url = new URL(spelled.replace("PORT", String(target.port)));
    await expect(guardedRequest(url, limits)).rejects.toThrow("is a private or reserved address");
    expect(target.seen.length).toBe(before);
  });

  it("connects to the very address it judged: the name is resolved once, so it cannot rebind", async () => {
    let lookups = 0;
    // A rebinding name: loopback first (allowed here, as in development), then somewhere else.
    const resolver: Resolver = (_name, _options, callback) => {
      lookups++;
      const address: LookupAddress =
        lookups === 1 ? { address: "127.0.0.1", family: 4 } : { address: "192.0.2.1", family: 4 };
      callback(null, [address]);
    };
    const answer = await guardedRequest(new URL(`http://rebind.example.test:${target.port}/doc`), {
      ...limits,
      policy: { allowLoopback: true, lookup: resolver },
    });
    expect(answer.body.toString()).toBe("the document");
    expect(lookups).toBe(1);
    expect(target.seen.at(-1)).toEqual({ path: "/doc", host: `rebind.example.test:${target.port}` });
  });

  it("follows the operator's origin's redirects, and judges each hop that leaves it", async () => {
    const origin = await start({
      "/moved": () => ({ status: 302, headers: { location: "/doc" } }),
      "/doc": () => ({ status: 200, body: "here" }),
      "/away": () => ({ status: 301, headers: { location: `http://localhost:${target.port}/doc` } }),
    });
    const trusted = (url: URL) => url.origin === origin.url;
    const before = target.seen.length;
    const moved = await guardedRequest(new URL(`${origin.url}/moved`), { ...limits, trusted });
    expect(moved.body.toString()).toBe("here");
    expect(moved.url.href).toBe(`${origin.url}/doc`);
    await expect(guardedRequest(new URL(`${origin.url}/away`), { ...limits, trusted })).rejects.toThrow(
      "localhost resolves to a private or reserved address",
    );
    expect(target.seen.length).toBe(before);
  });

  it("stops after its redirect limit, and returns a redirect as it is when told to", async () => {
    const loop = await start({ "/a": () => ({ status: 302, headers: { location: "/a" } }) });
    const trusted = () => true;
    await expect(guardedRequest(new URL(`${loop.url}/a`), { ...limits, trusted })).rejects.toThrow(
      "redirects more than 5 times",
    );
    const manual = await guardedRequest(new URL(`${loop.url}/a`), { ...limits, trusted, redirects: "manual" });
    expect(manual.status).toBe(302);
  });
});

describe("a guarded fetch (for a library that takes a fetch)", () => {
  it("posts a form to the operator's origin, and refuses an endpoint elsewhere that is internal", async () => {
    const received: string[] = [];
    const token = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        received.push(`${req.headers["content-type"]} ${body}`);
        res.writeHead(200, { "content-type": "application/json" }).end('{"access_token":"t"}');
      });
    });
    await new Promise<void>((resolve) => token.listen(0, "127.0.0.1", resolve));
    servers.push(token);
    const port = (token.address() as AddressInfo).port;
    const fetchImpl = guardedFetch({
      trusted: (url) => url.origin === `http://127.0.0.1:${port}`,
      maxBytes: 1 << 20,
      timeoutMs: 5000,
    });
    const ok = await fetchImpl(`http://127.0.0.1:${port}/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "authorization_code", code: "c" }),
      redirect: "manual",
    });
    expect(await ok.json()).toEqual({ access_token: "t" });
    expect(received).toEqual(["application/x-www-form-urlencoded;charset=UTF-8 grant_type=authorization_code&code=c"]);
    await expect(fetchImpl(`http://localhost:${port}/token`, { method: "POST", body: "x" })).rejects.toThrow(
      "localhost resolves to a private or reserved address",
    );
    expect(received).toHaveLength(1);
  });
});
