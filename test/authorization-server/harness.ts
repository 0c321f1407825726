import { createHash, randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import {
  type AuthorizationServer,
  type AuthorizationServerOptions,
  createAuthorizationServer,
  developmentUpstream,
  protectedResource,
  type ResourceServer,
} from "mcpkit/auth";
import { Client } from "mcpkit/client";
import {
  createStreamableHttpHandler,
  type FetchInfo,
  type Listening,
  listen,
  type StreamableHttpHandler,
} from "mcpkit/http";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer, type McpServer } from "mcpkit/server";
import { Browser } from "./browser.js";

/** A tool that says who called it. */
export function whoamiServer(): McpServer {
  const server = createServer({ name: "vault", version: "1" });
  server.tool("whoami", {}, (_args, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`);
  return server;
}

export interface Harness {
  /** The issuer, which is also the MCP server's origin. */
  issuer: string;
  /** The MCP endpoint, the tokens' resource. */
  resource: string;
  /** A second resource the server issues tokens for, served by another endpoint. */
  otherResource: string;
  as: AuthorizationServer;
  rs: ResourceServer;
  listening: Listening;
  close(): Promise<void>;
}

/**
 * An authorization server and an MCP server behind it, on one 127.0.0.1 origin (as
 * `mcpkit serve --authorization-server` runs them): the server's endpoints, the MCP
 * endpoint at /mcp and another at /other (both protected, DPoP accepted).
 */
export async function startHarness(
  options: Partial<AuthorizationServerOptions> & { server?: McpServer } = {},
): Promise<Harness> {
  let route: (request: Request, info?: FetchInfo) => Promise<Response> = async () =>
    new Response(null, { status: 503 });
  // The Node adapter passes the connection's address on, which the server's limits count by.
  const listening = await listen({ fetch: (request, info) => route(request, info) });
  const issuer = listening.url.href.replace(/\/$/, "");
  const resource = `${issuer}/mcp`;
  const otherResource = `${issuer}/other`;
  const { server, ...asOptions } = options;
  const as = createAuthorizationServer({
    issuer,
    resources: [resource, otherResource],
    upstream: developmentUpstream(),
    onError: () => {},
    ...asOptions,
  });
  const endpoint = (url: string, mcp: McpServer) => {
    const rs = protectedResource({
      verifier: as.verifier(url),
      resource: url,
      authorizationServers: [issuer],
      dpop: true,
    });
    return { rs, handler: createStreamableHttpHandler(mcp, { auth: rs }) };
  };
  const main = endpoint(resource, server ?? whoamiServer());
  const other = endpoint(otherResource, whoamiServer());
  const handlers: [ResourceServer, StreamableHttpHandler][] = [
    [main.rs, main.handler],
    [other.rs, other.handler],
  ];
  route = async (request, info) => {
    const path = new URL(request.url).pathname;
    if (as.handles(path)) return as.fetch(request, info);
    for (const [rs, handler] of handlers)
      if (path === new URL(rs.resource).pathname || path === rs.metadataPath) return handler.fetch(request);
    return new Response("Not found", { status: 404 });
  };
  return {
    issuer,
    resource,
    otherResource,
    as,
    rs: main.rs,
    listening,
    close: async () => {
      await Promise.all(handlers.map(([, h]) => h.close()));
      await listening.close();
    },
  };
}

export const REDIRECT = "http://127.0.0.1:4567/callback";

export interface TestClient {
  client_id: string;
  client_secret?: string;
}

export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** An OAuth client written out by hand, to send what a real client would, and what an attacker would. */
export function rawClient(h: Harness, browser = new Browser()) {
  const form = (values: Record<string, string | undefined>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v !== undefined) body.set(k, v);
    return body;
  };
  return {
    browser,
    async register(metadata: Record<string, unknown> = {}): Promise<TestClient> {
      const response = await fetch(`${h.issuer}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", ...metadata }),
      });
      if (response.status !== 201) throw new Error(`registration: ${response.status} ${await response.text()}`);
      return (await response.json()) as TestClient;
    },
    authorizationUrl(client: TestClient, params: Record<string, string | undefined>): string {
      const url = new URL(`${h.issuer}/authorize`);
      const all: Record<string, string | undefined> = {
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        code_challenge_method: "S256",
        state: "st-1",
        resource: h.resource,
        ...params,
      };
      for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
      return url.href;
    },
    /** Signs in (development user, consent approved) and returns the code and its verifier. */
    async code(client: TestClient, params: Record<string, string | undefined> = {}) {
      const { verifier, challenge } = pkce();
      const url = this.authorizationUrl(client, { code_challenge: challenge, ...params });
      const result = await browser.authorize(url, { until: REDIRECT });
      const code = result.callback?.searchParams.get("code");
      if (!code) throw new Error(`no code: ${result.status} at ${result.at}\n${browser.page}`);
      return { code, verifier, callback: result.callback as URL };
    },
    async token(values: Record<string, string | undefined>, headers: Record<string, string> = {}) {
      const response = await fetch(`${h.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: form(values),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, string>,
      };
    },
    /** Code, then tokens: the whole sign-in of a public client. */
    async signIn(client: TestClient, params: Record<string, string | undefined> = {}) {
      const { code, verifier } = await this.code(client, params);
      const answer = await this.token({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: client.client_id,
        resource: params.resource ?? h.resource,
      });
      if (answer.status !== 200) throw new Error(`token: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as unknown as {
        access_token: string;
        refresh_token: string;
        token_type: string;
        expires_in: number;
      };
    },
    async revoke(client: TestClient, token: string) {
      const response = await fetch(`${h.issuer}/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form({ token, client_id: client.client_id }),
      });
      return response.status;
    },
  };
}

/** What whoami answers at `url` for a caller sending `authorization`. */
export async function whoami(url: string, authorization: string): Promise<string> {
  const client = new Client({ name: "whoami", version: "1" });
  await client.connect(streamableHttpClientTransport(url, { headers: { authorization } }));
  try {
    const result = await client.callTool("whoami", {});
    return (result.content[0] as { text: string }).text;
  } finally {
    await client.close();
  }
}

/** The HTTP status of an initialize POST to `url` with these headers: 200 admitted, 401 refused. */
export async function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

/**
 * POST /register at `issuer` over a connection from `localAddress`: another address, as the
 * server sees it, though on this machine (all of 127.0.0.0/8 is loopback). `headers` are
 * sent too (a forwarded address, as a proxy or a forger writes it).
 */
export function registerFrom(
  localAddress: string,
  issuer: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter: string | undefined; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
    const req = httpRequest(
      `${issuer}/register`,
      {
        method: "POST",
        localAddress,
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"],
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
