import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { oidcUpstream } from "mcpkit/auth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Harness, pkce, REDIRECT, rawClient, startHarness, whoami } from "./harness.js";

// Client ID Metadata Documents: a client named by the URL of its metadata, which the
// authorization server fetches. The fetch is made on a client's say-so, so it is guarded
// against server-side request forgery: https only (http on loopback in development),
// private and reserved addresses refused (by name as well as by number), no redirects, a
// size and a time limit, and the document must name itself.

let docs: Server;
let base = "";
const fetched: string[] = [];
const hanging = new Set<ServerResponse>();

beforeAll(async () => {
  docs = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "/";
    fetched.push(path);
    const doc = (body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    const self = `${base}${path}`;
    if (path === "/client.json")
      return doc(
        { client_id: self, client_name: "Doc App", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" },
        { "cache-control": "max-age=600" },
      );
    if (path === "/second.json")
      return doc(
        { client_id: self, client_name: "Second", redirect_uris: [REDIRECT] },
        { "cache-control": "max-age=600" },
      );
    if (path === "/redirect") {
      res.writeHead(302, { location: "/client.json" });
      return res.end();
    }
    if (path === "/big.json") return doc({ client_id: self, redirect_uris: [REDIRECT], padding: "x".repeat(6000) });
    if (path === "/other-id.json") return doc({ client_id: `${base}/client.json`, redirect_uris: [REDIRECT] });
    if (path === "/confidential.json")
      return doc({ client_id: self, redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" });
    if (path === "/slow.json") {
      hanging.add(res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  docs.closeAllConnections();
  await new Promise<void>((resolve) => docs.close(() => resolve()));
});

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** The page /authorize shows for a client id (an error page when the client is refused). */
async function authorizePage(clientId: string): Promise<{ status: number; text: string }> {
  const client = rawClient(h);
  const url = client.authorizationUrl({ client_id: clientId }, { code_challenge: pkce().challenge });
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, text: await response.text() };
}

describe("a client named by its metadata document (development: http on loopback)", () => {
  it("signs in, shows the document's host on the consent page, and fetches the document once", async () => {
    h = await startHarness();
    const client = rawClient(h);
    const clientId = `${base}/client.json`;
    const before = fetched.length;
    const tokens = await client.signIn({ client_id: clientId });
    expect(client.browser.page).toContain("Doc App");
    expect(client.browser.page).toContain(new URL(base).host);
    expect(await whoami(h.resource, `Bearer ${tokens.access_token}`)).toBe("you are dev:test-user");
    // Cached (max-age=600): the token request and a second sign-in did not fetch it again.
    await client.signIn({ client_id: clientId });
    expect(fetched.slice(before).filter((p) => p === "/client.json")).toHaveLength(1);
  });

  it.each([
    ["/redirect", /redirects/],
    ["/big.json", /larger than 5120 bytes/],
    ["/other-id.json", /names another client_id/],
    ["/confidential.json", /public client/],
  ])("refuses %s", async (path, why) => {
    h = await startHarness();
    const page = await authorizePage(`${base}${path}`);
    expect(page.status).toBe(400);
    expect(page.text).toMatch(why);
  });

  it("keeps at most maxCached fetched documents: beyond, a document is fetched again for each use", async () => {
    h = await startHarness({ clientMetadataDocuments: { maxCached: 1 } });
    const before = fetched.length;
    for (let i = 0; i < 2; i++) {
      expect((await authorizePage(`${base}/client.json`)).status).toBe(200);
      expect((await authorizePage(`${base}/second.json`)).status).toBe(200);
    }
    const since = fetched.slice(before);
    expect(since.filter((p) => p === "/client.json")).toHaveLength(1);
    expect(since.filter((p) => p === "/second.json")).toHaveLength(2);
  });

  it("fetches nothing for a caller over its sign-in rate: it is refused first", async () => {
    h = await startHarness({ limits: { signIn: { max: 1, windowSec: 600 } } });
    const before = fetched.length;
    expect((await authorizePage(`${base}/second.json`)).status).toBe(200);
    const refused = await authorizePage(`${base}/client.json`);
    expect(refused.status).toBe(429);
    expect(fetched.slice(before)).toEqual(["/second.json"]);
  });

  it("gives up on a document that does not come within its time limit", async () => {
    h = await startHarness({ clientMetadataDocuments: { timeoutMs: 300 } });
    const page = await authorizePage(`${base}/slow.json`);
    expect(page.status).toBe(400);
    expect(page.text).toContain("did not answer within 300 ms");
  });

  it("still refuses http anywhere but loopback, and private networks", async () => {
    h = await startHarness();
    expect((await authorizePage("http://mcp-client.example/client.json")).text).toContain("is not an https URL");
    expect((await authorizePage("https://10.1.2.3/client.json")).text).toContain("private or reserved address");
  });
});

describe("server-side request forgery, outside development", () => {
  const upstream = oidcUpstream({ issuer: "https://idp.invalid", clientId: "x", clientSecret: "y" });

  it.each([
    ["https://10.0.0.1/client.json", "private or reserved address"],
    ["https://192.168.1.10/client.json", "private or reserved address"],
    ["https://169.254.169.254/latest/meta-data", "private or reserved address"],
    ["https://[::1]/client.json", "private or reserved address"],
    ["https://[::ffff:127.0.0.1]/client.json", "private or reserved address"],
    ["https://[fd00::1]/client.json", "private or reserved address"],
    ["https://127.0.0.1/client.json", "private or reserved address"],
    // IPv4 carried in IPv6, and the special ranges the guard once missed (one address guard: address-guard/).
    ["https://[::7f00:1]/client.json", "IPv4-compatible address (::/96) of 127.0.0.1: loopback"],
    ["https://[::ffff:0:7f00:1]/client.json", "IPv4-translated address (::ffff:0:0:0/96) of 127.0.0.1: loopback"],
    ["https://[64:ff9b::a9fe:a9fe]/client.json", "NAT64 address (64:ff9b::/96) of 169.254.169.254: link-local"],
    ["https://[2002:a00:1::1]/client.json", "6to4 address (2002::/16) of 10.0.0.1: private"],
    [
      "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/client.json",
      "Teredo address (2001::/32) whose client is 127.0.0.1",
    ],
    ["https://[fec0::1]/client.json", "site-local, fec0::/10"],
    ["https://[2001:db8::1]/client.json", "documentation, 2001:db8::/32"],
    ["https://[ff02::1]/client.json", "multicast, ff00::/8"],
    ["https://100.64.0.1/client.json", "carrier-grade NAT"],
    ["https://198.18.0.1/client.json", "benchmarking, 198.18.0.0/15"],
    ["https://192.0.0.8/client.json", "IETF protocol assignments, 192.0.0.0/24"],
    ["https://0x7f.1/client.json", "loopback, 127.0.0.0/8"],
    ["https://2130706433/client.json", "loopback, 127.0.0.0/8"],
    ["https://0.0.0.0/client.json", "this network, 0.0.0.0/8"],
  ])("refuses %s without connecting", async (clientId, why) => {
    h = await startHarness({ upstream });
    const page = await authorizePage(clientId);
    expect(page.status).toBe(400);
    expect(page.text).toContain(why);
  });

  it("refuses a name that resolves to a loopback address (checked after the lookup, before connecting)", async () => {
    h = await startHarness({ upstream });
    const port = new URL(base).port;
    const before = fetched.length;
    const page = await authorizePage(`https://localhost:${port}/client.json`);
    expect(page.text).toContain("localhost resolves to a private or reserved address");
    expect(fetched.length).toBe(before);
  });

  it("does not fetch http documents at all", async () => {
    h = await startHarness({ upstream });
    const before = fetched.length;
    const page = await authorizePage(`${base}/client.json`);
    expect(page.text).toContain("not registered here");
    expect(fetched.length).toBe(before);
  });

  it("is off when clientMetadataDocuments is false", async () => {
    h = await startHarness({ upstream, clientMetadataDocuments: false });
    const page = await authorizePage("https://app.example/client.json");
    expect(page.text).toContain("is not registered here");
  });
});
