import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ApiCredentials, openApiServer } from "mcpkit/openapi";
import { connectInMemory } from "mcpkit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// What the operator configured stays the operator's: the API's credentials never come back
// to the MCP client (in a resource URI, an error, an API that echoes the request), and the
// API's redirects are followed only under the base URL, its path included, so an API at
// /v2 cannot send the caller, credentials and all, to /admin on the same host.

const KEY = "sk_live_7d3c0ffee5ecret42";
const TOKEN = "tok_9f8e7d6c5b4a39281706";

interface Hit {
  url: string;
  headers: IncomingMessage["headers"];
}

let api: Server;
let base = "";
const hits: Hit[] = [];

beforeAll(async () => {
  api = createServer((req, res) => {
    const url = req.url ?? "/";
    hits.push({ url, headers: req.headers });
    const path = url.split("?")[0];
    // Echoes the request as received, headers and all (as some APIs do in errors).
    const echo = JSON.stringify({ url, headers: req.headers });
    switch (path) {
      case "/v2/file":
        return res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from([1, 2, 3]));
      case "/v2/echo":
        return res.writeHead(200, { "content-type": "application/json" }).end(echo);
      case "/v2/fails":
        return res.writeHead(401, { "content-type": "text/plain" }).end(`bad credentials in ${echo}`);
      case "/v2/inside":
        return res.writeHead(302, { location: "/v2/echo" }).end();
      case "/v2/outside":
        return res.writeHead(302, { location: "/admin/delete-everything" }).end();
      case "/v2/sideways":
        return res.writeHead(302, { location: "/v2x/echo" }).end();
      case "/v2/encoded":
        return res.writeHead(302, { location: "/v2/..%2Fadmin/delete-everything" }).end();
      case "/v2/elsewhere":
        return res
          .writeHead(302, {
            location: `http://localhost:${(api.address() as AddressInfo).port}/v2/echo?api_key=${KEY}`,
          })
          .end();
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => api.close());

const operation = (operationId: string, json = true) => ({
  get: {
    operationId,
    responses: {
      "200": {
        description: "ok",
        content: {
          [json ? "application/json" : "application/octet-stream"]: { schema: { type: json ? "object" : "string" } },
        },
      },
    },
  },
});
const document = {
  openapi: "3.0.3",
  info: { title: "secrets", version: "1" },
  paths: {
    "/file": operation("file", false),
    "/echo": operation("echo"),
    "/fails": operation("fails"),
    "/inside": operation("inside"),
    "/outside": operation("outside"),
    "/sideways": operation("sideways"),
    "/encoded": operation("encoded"),
    "/elsewhere": operation("elsewhere"),
  },
  components: { securitySchemes: { key: { type: "apiKey", in: "query", name: "api_key" } } },
};

async function serve(credentials: ApiCredentials, headers?: Record<string, string>) {
  const server = await openApiServer({
    document,
    baseUrl: `${base}/v2`,
    credentials,
    outputSchemas: false,
    ...(headers && { headers }),
  });
  return connectInMemory(server);
}

describe("the API's credentials", () => {
  it("never come back in a resource URI: the query-string key is taken out of it", async () => {
    const { client, close } = await serve({ apiKey: { value: KEY } });
    const result = await client.callTool("file", {});
    expect(hits.at(-1)?.url).toBe(`/v2/file?api_key=${KEY}`);
    expect(result.content[0]).toMatchObject({ type: "resource", resource: { uri: `${base}/v2/file` } });
    expect(JSON.stringify(result)).not.toContain(KEY);
    await close();
  });

  it("never come back in a resource URI whatever characters the key holds (the URL writes ' as %27)", async () => {
    for (const value of ["k3y'with'quotes", "k3y with spaces+plus/slash=", "k3y!~*()é"]) {
      const { client, close } = await serve({ apiKey: { value } });
      const result = await client.callTool("file", {});
      expect(result.content[0]).toMatchObject({ type: "resource", resource: { uri: `${base}/v2/file` } });
      await close();
    }
  });

  it("never come back in what the API echoes, in a success or an error, whatever form they were sent in", async () => {
    const credentials: ApiCredentials[] = [
      { apiKey: { value: KEY } },
      { bearer: TOKEN },
      { basic: { username: "svc", password: KEY } },
      { apiKey: { value: KEY, in: "cookie", name: "session" } },
      { headers: { "x-api-key": KEY } },
    ];
    for (const given of credentials) {
      const { client, close } = await serve(given);
      for (const tool of ["echo", "fails"]) {
        const result = await client.callTool(tool, {});
        const sent = JSON.stringify(hits.at(-1)?.headers) + hits.at(-1)?.url;
        // The API did get them; the client sees only the mark.
        expect(
          sent.includes(KEY) || sent.includes(TOKEN) || sent.includes(Buffer.from(`svc:${KEY}`).toString("base64")),
        ).toBe(true);
        const seen = JSON.stringify(result);
        for (const secret of [KEY, TOKEN, encodeURIComponent(KEY), Buffer.from(`svc:${KEY}`).toString("base64")])
          expect(seen, `${tool} with ${JSON.stringify(Object.keys(given))}`).not.toContain(secret);
        expect(seen).toContain("[redacted]");
      }
      await close();
    }
  });

  it("never come back when given as fixed headers whose names say they are secret (mcpkit serve openapi -H)", async () => {
    const { client, close } = await serve(
      {},
      { Authorization: `Bearer ${TOKEN}`, "X-Api-Key": KEY, "User-Agent": "agent/1.0" },
    );
    const result = await client.callTool("echo", {});
    expect(hits.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const seen = JSON.stringify(result);
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain(KEY);
    // A header that is no secret is left as it is.
    expect(seen).toContain("agent/1.0");
    await close();
  });

  it("never come back in an error about a redirect", async () => {
    const { client, close } = await serve({ apiKey: { value: KEY } });
    const result = await client.callTool("elsewhere", {});
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(KEY);
    await close();
  });
});

describe("the API's redirects", () => {
  it("are followed under the base URL's path", async () => {
    const { client, close } = await serve({ bearer: TOKEN });
    const result = await client.callTool("inside", {});
    expect(result.isError).toBeFalsy();
    expect(hits.at(-1)?.url).toBe("/v2/echo");
    await close();
  });

  it.each([
    ["outside", "/admin/delete-everything"],
    ["sideways", "/v2x/echo"],
    ["encoded", "/v2/..%2Fadmin/delete-everything"],
  ])("are not followed out of the base URL's path, on the same origin (%s)", async (tool, target) => {
    const { client, close } = await serve({ bearer: TOKEN });
    const before = hits.length;
    const result = await client.callTool(tool, {});
    expect(result).toMatchObject({ isError: true });
    expect((result.content[0] as { text: string }).text).toBe(
      "The API redirected outside its base URL (/v2/); not followed",
    );
    expect(hits.slice(before).map((h) => h.url)).toEqual([`/v2/${tool}`]);
    expect(hits.some((h) => h.url === target)).toBe(false);
    await close();
  });
});
