import { jwtVerifier, protectedResource, type ResourceServer, type ResourceServerOptions } from "mcpkit/auth";
import { createStreamableHttpHandler, type Listening, listen, type StreamableHttpHandler } from "mcpkit/http";
import type { McpServer } from "mcpkit/server";
import { afterEach, beforeEach } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./authorization-server.js";

/** An MCP server on 127.0.0.1 at /mcp, protected by the test authorization server's tokens. */
export async function protectedMcp(
  server: McpServer,
  as: TestAuthorizationServer,
  options: Partial<ResourceServerOptions> = {},
): Promise<{ url: string; resource: ResourceServer; listening: Listening; close: () => Promise<void> }> {
  let handler: StreamableHttpHandler | undefined;
  const listening = await listen({
    fetch: (request) => (handler ? handler.fetch(request) : Promise.resolve(new Response(null, { status: 503 }))),
    close: async () => handler?.close(),
  });
  const url = new URL("/mcp", listening.url).href;
  const resource = protectedResource({
    verifier: jwtVerifier({ jwksUrl: as.jwksUrl, issuer: as.issuer, audience: url }),
    resource: url,
    authorizationServers: [as.issuer],
    scopesSupported: ["tools:read"],
    ...options,
  });
  handler = createStreamableHttpHandler(server, { auth: resource });
  return { url, resource, listening, close: () => listening.close() };
}

export const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });

/** Per test: a fresh authorization server, and what to close after the test (last first). */
export function perTestAuthorizationServer(): { as: TestAuthorizationServer; closers: (() => Promise<void>)[] } {
  const fixture = { as: undefined as unknown as TestAuthorizationServer, closers: [] as (() => Promise<void>)[] };
  beforeEach(async () => {
    fixture.as = await startAuthorizationServer();
    fixture.closers = [() => fixture.as.close()];
  });
  afterEach(async () => {
    for (const close of fixture.closers.reverse()) await close().catch(() => {});
  });
  return fixture;
}
