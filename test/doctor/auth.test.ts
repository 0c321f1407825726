import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { diagnose } from "../../packages/cli/src/doctor/index.js";
import { check, httpServer, json, outline } from "./helpers.js";

// The authorization discovery a client follows after a 401 (authorization §Authorization
// Server Discovery), step by step, against servers that get one step wrong each. The
// doctor never signs in: it reads metadata, and only with GET.

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

/** An authorization server's metadata, at its origin's RFC 8414 well-known URI. */
async function authorizationServer(metadata: (issuer: string) => object | undefined) {
  const server = await httpServer((request, response) => {
    const body = request.url === "/.well-known/oauth-authorization-server" ? metadata(server.origin) : undefined;
    if (body) json(response, 200, body);
    else json(response, 404, { error: "not_found" });
  });
  open.push(server);
  return server;
}

const GOOD_AS = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  registration_endpoint: `${issuer}/register`,
  response_types_supported: ["code"],
  code_challenge_methods_supported: ["S256"],
});

interface Protected {
  /** The WWW-Authenticate of the 401, from the server's origin; none when undefined. */
  challenge?: (origin: string) => string;
  /** The protected resource metadata at /.well-known/oauth-protected-resource/mcp. */
  metadata?: (origin: string) => object;
  /** Answers the metadata request itself (to test the limits). */
  metadataAnswer?: (response: ServerResponse) => void;
}

/** An MCP endpoint at /mcp that answers every POST with 401, and its metadata. */
async function protectedServer(setup: Protected) {
  const server = await httpServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.method === "POST" && request.url === "/mcp") {
      const challenge = setup.challenge?.(server.origin);
      json(response, 401, { error: "invalid_token" }, challenge ? { "www-authenticate": challenge } : {});
    } else if (request.url === "/.well-known/oauth-protected-resource/mcp" && setup.metadataAnswer)
      setup.metadataAnswer(response);
    else if (request.url === "/.well-known/oauth-protected-resource/mcp" && setup.metadata)
      json(response, 200, setup.metadata(server.origin));
    else json(response, 404, { error: "not_found" });
  });
  open.push(server);
  return server;
}

const hinted = (origin: string) => `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;

describe("doctor: authorization discovery, without a sign-in", () => {
  it("follows every step of a server that gets them right, and passes it: sign-in is for a client to do", async () => {
    const as = await authorizationServer(GOOD_AS);
    const server = await protectedServer({
      challenge: hinted,
      metadata: (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [as.origin] }),
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: { "X-Api-Key": "for-the-mcp-server" } });
    expect(outline(report)).toEqual([
      "reachable: ok",
      "endpoint: ok",
      "auth-challenge: ok",
      "auth-resource-metadata: ok",
      "auth-resource: ok",
      "auth-server-metadata: ok",
      "auth-registration: ok",
      "auth-pkce: ok",
      "auth-required: info",
    ]);
    expect(report.ok).toBe(true);
    expect(check(report, "auth-resource-metadata").message).toBe(
      `Found at ${server.origin}/.well-known/oauth-protected-resource/mcp; authorization server ${as.origin}`,
    );
    expect(check(report, "auth-server-metadata").message).toBe(
      `Found at ${as.origin}/.well-known/oauth-authorization-server (issuer ${as.origin})`,
    );
    expect(check(report, "auth-registration").message).toBe(
      `A new client can sign in: dynamic client registration at ${as.origin}/register`,
    );

    // Never a sign-in: the authorization server was asked for its metadata, with GET, and nothing else.
    expect(as.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /.well-known/oauth-authorization-server"]);
    // The headers given for the MCP server went to it, and to no metadata document.
    const mcp = server.requests.filter((r) => r.path === "/mcp");
    expect(mcp.length).toBeGreaterThan(0);
    expect(mcp.every((r) => r.headers["x-api-key"] === "for-the-mcp-server" && r.method === "POST")).toBe(true);
    for (const r of [...server.requests.filter((r) => r.path !== "/mcp"), ...as.requests]) {
      expect(r.method).toBe("GET");
      expect(r.headers["x-api-key"]).toBeUndefined();
      expect(r.headers.authorization).toBeUndefined();
    }
  });

  it("a 401 without WWW-Authenticate, and no metadata anywhere a client looks", async () => {
    const server = await protectedServer({});
    const report = await diagnose({ kind: "http", url: server.url, headers: {} });
    expect(outline(report)).toEqual([
      "reachable: ok",
      "endpoint: ok",
      "auth-challenge: warning",
      "auth-resource-metadata: error",
    ]);
    expect(check(report, "auth-challenge").message).toBe("The 401 has no WWW-Authenticate header");
    expect(check(report, "auth-resource-metadata").message).toBe(
      `No protected resource metadata where a client looks: ${server.origin}/.well-known/oauth-protected-resource/mcp (HTTP 404); ${server.origin}/.well-known/oauth-protected-resource (HTTP 404)`,
    );
    expect(report.ok).toBe(false);
  });

  it("a challenge without resource_metadata is a warning when the well-known URI has the metadata", async () => {
    const as = await authorizationServer(GOOD_AS);
    const server = await protectedServer({
      challenge: () => 'Bearer realm="mcp"',
      metadata: (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [as.origin] }),
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: {} });
    expect(check(report, "auth-challenge")).toMatchObject({ ok: false, severity: "warning" });
    expect(check(report, "auth-pkce").ok).toBe(true);
    expect(report.ok).toBe(true);
  });

  it("metadata for another resource: clients refuse it", async () => {
    const server = await protectedServer({
      challenge: hinted,
      metadata: () => ({
        resource: "https://api.example.com/mcp",
        authorization_servers: ["https://auth.example.com"],
      }),
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: {} });
    expect(outline(report).slice(-1)).toEqual(["auth-resource: error"]);
    const resource = check(report, "auth-resource");
    expect(resource.message).toBe(
      `The metadata is for https://api.example.com/mcp, not for ${server.url}: clients refuse it`,
    );
    expect(resource.fix).toBe(
      `Set "resource" to ${server.url} in the metadata: clients refuse metadata for another resource.`,
    );
  });

  it("metadata that names no authorization server", async () => {
    const server = await protectedServer({ challenge: hinted, metadata: (origin) => ({ resource: `${origin}/mcp` }) });
    const report = await diagnose({ kind: "http", url: server.url, headers: {} });
    expect(check(report, "auth-resource-metadata").message).toContain("names no authorization_servers");
    expect(report.ok).toBe(false);
  });

  it("an authorization server without metadata, and one whose metadata names another issuer", async () => {
    const none = await authorizationServer(() => undefined);
    const other = await authorizationServer(() => GOOD_AS("https://elsewhere.example.com"));
    for (const [as, expected] of [
      [
        none,
        `No metadata for the authorization server ${none.origin}: ${none.origin}/.well-known/oauth-authorization-server (HTTP 404); ${none.origin}/.well-known/openid-configuration (HTTP 404)`,
      ],
      [other, `${other.origin}/.well-known/oauth-authorization-server is not valid for ${other.origin}/`],
    ] as const) {
      const server = await protectedServer({
        challenge: hinted,
        metadata: (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [as.origin] }),
      });
      const report = await diagnose({ kind: "http", url: server.url, headers: {} });
      expect(outline(report).slice(-1)).toEqual(["auth-server-metadata: error"]);
      expect(check(report, "auth-server-metadata").message).toContain(expected);
    }
  });

  it("an authorization server without registration or client metadata documents, and without S256", async () => {
    const as = await authorizationServer((issuer) => ({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      code_challenge_methods_supported: ["plain"],
    }));
    const server = await protectedServer({
      challenge: hinted,
      metadata: (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [as.origin] }),
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: {} });
    expect(check(report, "auth-registration")).toMatchObject({
      ok: false,
      severity: "error",
      message: "The authorization server offers neither dynamic client registration nor client ID metadata documents",
    });
    expect(check(report, "auth-pkce").message).toBe('code_challenge_methods_supported is ["plain"], without S256');
    expect(report.ok).toBe(false);
  });

  it("client ID metadata documents are registration enough; no code_challenge_methods_supported is no PKCE", async () => {
    const as = await authorizationServer((issuer) => {
      const { registration_endpoint: _r, code_challenge_methods_supported: _m, ...rest } = GOOD_AS(issuer);
      return { ...rest, client_id_metadata_document_supported: true };
    });
    const server = await protectedServer({
      challenge: hinted,
      metadata: (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [as.origin] }),
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: {} });
    expect(check(report, "auth-registration").message).toBe("A new client can sign in: client ID metadata documents");
    expect(check(report, "auth-pkce").message).toContain("has no code_challenge_methods_supported");
  });

  it("a token given with --header that the server refuses", async () => {
    const as = await authorizationServer(GOOD_AS);
    const server = await protectedServer({
      challenge: (origin) => `${hinted(origin)}, error="invalid_token"`,
      metadata: (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [as.origin] }),
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: { Authorization: "Bearer expired" } });
    expect(check(report, "auth-token")).toMatchObject({ ok: false, severity: "error" });
    expect(report.ok).toBe(false);
  });
});

describe("doctor: what a hostile server's metadata cannot make it do", () => {
  it("reads no metadata document larger than 1 MiB", async () => {
    const server = await protectedServer({
      challenge: hinted,
      metadataAnswer: (response) => {
        response.writeHead(200, { "content-type": "application/json" });
        // Valid JSON with a resource, 2 MiB of it: without the limit, discovery would take it.
        response.end(
          JSON.stringify({ resource: "http://x/mcp", authorization_servers: ["http://x"], pad: "x".repeat(2 ** 21) }),
        );
      },
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: {} });
    expect(check(report, "auth-resource-metadata").message).toContain(
      "/.well-known/oauth-protected-resource/mcp (the document is larger than 1 MiB, which no metadata needs)",
    );
  });

  it("waits for a metadata document no longer than the step's timeout", async () => {
    const server = await protectedServer({
      challenge: hinted,
      metadataAnswer: (response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"resource": "'); // and never more
      },
    });
    const report = await diagnose({ kind: "http", url: server.url, headers: {} }, { timeoutMs: 500 });
    expect(check(report, "auth-resource-metadata").message).toContain(
      "/.well-known/oauth-protected-resource/mcp (no answer within 500 ms)",
    );
  });
});
