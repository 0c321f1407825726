import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerifier, protectedResource } from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer, principalOf } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { initialize, perTestAuthorizationServer, post, protectedMcp } from "./helpers.js";

// The principal is the token's issuer and subject. A token without `sub` speaks for its
// client, labelled as a client, so no client id (however chosen) names a user; a token
// with neither claim shares nothing with any other token.

const fixture = perTestAuthorizationServer();

describe("principalOf", () => {
  it("labels users, clients and bare tokens apart, issuer included", () => {
    expect(principalOf({ issuer: "https://as", subject: "ada" })).toBe("user:https%3A%2F%2Fas:ada");
    expect(principalOf({ issuer: "https://as", clientId: "ada" })).toBe("client:https%3A%2F%2Fas:ada");
    // The same subject at another issuer is another person.
    expect(principalOf({ issuer: "https://other", subject: "ada" })).not.toBe(
      principalOf({ issuer: "https://as", subject: "ada" }),
    );
    // A subject cannot smuggle a separator to look like another issuer's.
    expect(principalOf({ issuer: "https://as", subject: "x:y" })).not.toBe(
      principalOf({ issuer: "https://as:x", subject: "y" }),
    );
    const a = principalOf({ token: "token-a" });
    expect(a).toMatch(/^token::/);
    expect(a).not.toBe(principalOf({ token: "token-b" }));
    for (const none of [undefined, null, "ada", 7, {}, { scopes: ["a"] }]) expect(principalOf(none)).toBeUndefined();
  });
});

async function taskServer() {
  const s = createServer({ name: "principals", version: "1" });
  s.tool(
    "slow",
    { input: z.object({ label: z.string() }), task: { support: "optional", pollIntervalMs: 100 } },
    async ({ label }, ctx) => {
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
      return label;
    },
  );
  const mcp = await protectedMcp(s, fixture.as, { scopesSupported: [] });
  fixture.closers.push(mcp.close);
  return mcp;
}

describe("a token without sub never takes a user's place", () => {
  it("client_id equal to a user's subject: that user's session is 404 to it", async () => {
    const mcp = await taskServer();
    const { as } = fixture;
    const ada = { authorization: `Bearer ${await as.sign({ sub: "ada", scope: "" }, { audience: mcp.url })}` };
    const impostor = {
      authorization: `Bearer ${await as.sign({ client_id: "ada", scope: "" }, { audience: mcp.url })}`,
    };
    const opened = await post(mcp.url, initialize, ada);
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const id = opened.headers.get("mcp-session-id") as string;
    const list = (who: Record<string, string>) =>
      post(
        mcp.url,
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { ...who, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      );
    const refused = await list(impostor);
    expect(refused.status).toBe(404);
    await refused.body?.cancel();
    const own = await list(ada);
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it("client_id equal to a user's subject: that user's tasks are unknown to it", async () => {
    const mcp = await taskServer();
    const { as } = fixture;
    const connect = async (claims: Record<string, unknown>) => {
      const token = await as.sign({ scope: "", ...claims }, { audience: mcp.url });
      const client = new Client({ name: "t", version: "1" });
      await client.connect(streamableHttpClientTransport(mcp.url, { headers: { authorization: `Bearer ${token}` } }));
      fixture.closers.push(() => client.close());
      return client;
    };
    const ada = await connect({ sub: "ada" });
    const started = await ada.callToolAsTask("slow", { label: "ada's" });
    const taskId = started.task?.taskId as string;
    const impostor = await connect({ client_id: "ada" });
    await expect(impostor.task(taskId).get()).rejects.toMatchObject({ code: -32602 });
    await expect(impostor.task(taskId).cancel()).rejects.toMatchObject({ code: -32602 });
    expect(await ada.task(taskId).get()).toMatchObject({ status: "working" });
    await ada.task(taskId).cancel();
  });

  it("two tokens with neither sub nor client_id do not share a session", async () => {
    const mcp = await taskServer();
    const { as } = fixture;
    const first = { authorization: `Bearer ${await as.sign({ scope: "", n: 1 }, { audience: mcp.url })}` };
    const second = { authorization: `Bearer ${await as.sign({ scope: "", n: 2 }, { audience: mcp.url })}` };
    const opened = await post(mcp.url, initialize, first);
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const headers = {
      "mcp-session-id": opened.headers.get("mcp-session-id") as string,
      "mcp-protocol-version": "2025-11-25",
    };
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const other = await post(mcp.url, list, { ...second, ...headers });
    expect(other.status).toBe(404);
    await other.body?.cancel();
    const same = await post(mcp.url, list, { ...first, ...headers });
    expect(same.status).toBe(200);
    await same.body?.cancel();
  });
});

/** A JWKS endpoint on 127.0.0.1 answering HTML, counting its requests. */
async function brokenJwks() {
  let fetches = 0;
  const server = createHttpServer((_req, res) => {
    fetches++;
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Service temporarily unavailable</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fixture.closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, fetches: () => fetches };
}

describe("an unusable JWKS", () => {
  it("answers a plain 401 and gives the detail to onError only", async () => {
    const jwks = await brokenJwks();
    const errors: unknown[] = [];
    const s = createServer({ name: "jwks", version: "1" });
    const mcp = await protectedMcp(s, fixture.as, {
      verifier: jwtVerifier({ jwksUrl: jwks.url, issuer: fixture.as.issuer, audience: "unused" }),
      onError: (error) => errors.push(error),
    });
    fixture.closers.push(mcp.close);
    const token = await fixture.as.sign({ sub: "ada", scope: "" }, { audience: mcp.url });
    const response = await post(mcp.url, initialize, { authorization: `Bearer ${token}` });
    expect(response.status).toBe(401);
    const text = `${await response.text()} ${response.headers.get("www-authenticate")}`;
    expect(text).toContain("The access token could not be verified");
    expect(text).not.toMatch(/JSON|parse|html|Web Key Set/i);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain("is not JSON");
  });

  it("is fetched again at most once per cooldown, however many requests come", async () => {
    const jwks = await brokenJwks();
    const s = createServer({ name: "jwks", version: "1" });
    let url = "";
    const listening = await listen({ fetch: (request) => handler.fetch(request) });
    fixture.closers.push(() => listening.close());
    url = new URL("/mcp", listening.url).href;
    const handler = createStreamableHttpHandler(s, {
      auth: protectedResource({
        verifier: jwtVerifier({ jwksUrl: jwks.url, issuer: fixture.as.issuer, audience: url }),
        resource: url,
        authorizationServers: [fixture.as.issuer],
        onError: () => {},
      }),
    });
    const token = await fixture.as.sign({ sub: "ada", scope: "" }, { audience: url });
    const statuses: number[] = [];
    // Seven rounds of three concurrent requests: 21 in all.
    for (let round = 0; round < 7; round++) {
      const answers = await Promise.all(
        [0, 1, 2].map(() => post(url, initialize, { authorization: `Bearer ${token}` })),
      );
      for (const a of answers) {
        statuses.push(a.status);
        await a.body?.cancel();
      }
    }
    expect(statuses).toEqual(Array(21).fill(401));
    expect(jwks.fetches()).toBe(1);
  });
});
