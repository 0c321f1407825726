import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAuthorizationServer, developmentUpstream } from "mcpkit/auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, pkce, REDIRECT, rawClient, startHarness } from "./harness.js";

// Which redirect URIs a client may have, by allow-list, at registration (RFC 7591) and in a
// client ID metadata document alike: https; http to this machine only (RFC 8252 §7.3); a
// native app's private-use scheme in reverse-domain form (RFC 8252 §7.1). Every scheme an
// operating system hands to a program (ms-msdt:, search-ms:, ms-officecmd:…) or a browser
// treats specially (javascript:, data:, view-source:…) is left out, with fragments and
// userinfo.

let h: Harness;
beforeAll(async () => {
  // Every registration here counts against the rate: 60 of them from this one address.
  h = await startHarness({ limits: { register: false } });
});
afterAll(async () => {
  await h.close();
});

const register = async (redirect_uris: unknown) => {
  const response = await fetch(`${h.issuer}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris, token_endpoint_auth_method: "none" }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
};

const REFUSED: [string, RegExp][] = [
  ["ms-msdt:/id PCWDiagnostic", /space/],
  ["ms-msdt:-id", /ms-msdt: scheme/],
  ["search-ms:query=invoice&crumb=location:\\\\evil.example\\share", /backslash/],
  ["search-ms:query=invoice", /search-ms: scheme/],
  ["ms-officecmd:%7B%22id%22:3%7D", /ms-officecmd: scheme/],
  ["filesystem:https://app.example/temporary/x", /filesystem: scheme/],
  ["jar:https://app.example/a.jar!/cb", /jar: scheme/],
  ["view-source:https://app.example/cb", /view-source: scheme/],
  ["javascript:alert(document.domain)", /javascript: scheme/],
  ["data:text/html,<script>alert(1)</script>", /data: scheme/],
  ["file:///etc/passwd", /file: scheme/],
  ["vbscript:msgbox(1)", /vbscript: scheme/],
  ["blob:https://app.example/0d1e", /blob: scheme/],
  ["ftp://app.example/cb", /ftp: scheme/],
  ["wss://app.example/cb", /wss: scheme/],
  ["zed://anysphere/cb", /zed: scheme/],
  ["x-apple.systempreferences:com.apple.preference.security", /x-apple.systempreferences: scheme/],
  ["microsoft.windows.camera:", /microsoft.windows.camera: scheme/],
  ["microsoft.windows.camera.picker:?x=1", /microsoft.windows.camera.picker: scheme/],
  ["windows.immersivecontrolpanel:", /windows.immersivecontrolpanel: scheme/],
  ["https://app.example/cb#access_token", /fragment/],
  ["https://app.example/cb#", /fragment/],
  ["https://user@app.example/cb", /userinfo/],
  ["https://good.example:pw@evil.example/cb", /userinfo/],
  ["http://127.0.0.1@evil.example/cb", /userinfo/],
  ["https://@evil.example/cb", /userinfo/],
  ["https://good.example\\@evil.example/cb", /backslash/],
  ["http://app.example/cb", /http but not to this machine/],
  ["http://127.0.0.2/cb", /http but not to this machine/],
  ["http://localhost.evil.example/cb", /http but not to this machine/],
  ["/relative/cb", /not an absolute URI/],
  ["https://app.example/\ncb", /control character/],
];

describe("registration (RFC 7591)", () => {
  it.each(REFUSED)("refuses %s with invalid_redirect_uri", async (uri, says) => {
    const answer = await register([uri]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_redirect_uri");
    expect(answer.body.error_description).toMatch(says);
  });

  it("refuses a refused URI among good ones, and redirect URIs over 4000 characters together", async () => {
    expect((await register(["https://app.example/cb", "search-ms:query=x"])).body.error).toBe("invalid_redirect_uri");
    const long = Array.from({ length: 3 }, (_, i) => `https://app.example/${i}/${"x".repeat(1500)}`);
    expect((await register(long)).body.error_description).toContain("more than 4000 characters together");
  });

  it("keeps each grant type once, however often a registration repeats it (800 fit in 16 KiB, each kept)", async () => {
    const response = await fetch(`${h.issuer}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        redirect_uris: ["https://app.example/cb"],
        token_endpoint_auth_method: "none",
        grant_types: Array.from({ length: 800 }, (_, i) => (i % 2 ? "refresh_token" : "authorization_code")),
      }),
    });
    expect(response.status).toBe(201);
    // What the answer says is what the client record keeps.
    expect(((await response.json()) as { grant_types: string[] }).grant_types).toEqual([
      "authorization_code",
      "refresh_token",
    ]);
  });

  it("registers https, http to this machine on any port, and native apps' reverse-domain schemes", async () => {
    const allowed = [
      "https://app.example/cb",
      "https://app.example:8443/oauth/callback?tenant=a",
      "http://127.0.0.1/callback",
      "http://127.0.0.1:53682/callback",
      "http://[::1]:8080/cb",
      "http://localhost:3000/cb",
      "com.example.app:/oauth2redirect",
      "com.googleusercontent.apps.123-abc:/oauth2redirect",
      "io.github.someone.tool://callback",
    ];
    const answer = await register(allowed);
    expect(answer.status).toBe(201);
    expect(answer.body.redirect_uris).toEqual(allowed);
  });
});

describe("MCP clients' own schemes (appSchemes)", () => {
  // Cursor registers these three in one request (its desktop app, its agents, its loopback).
  const CURSOR = [
    "cursor://anysphere.cursor-mcp/oauth/callback",
    "https://www.cursor.com/agents/mcp/oauth/callback",
    "http://localhost:8787/callback",
  ];

  it("registers Cursor's redirect URIs by default", async () => {
    const answer = await register(CURSOR);
    expect(answer.status).toBe(201);
    expect(answer.body.redirect_uris).toEqual(CURSOR);
  });

  it("refuses them with appSchemes: [] (reverse-domain schemes only)", async () => {
    const strict = await startHarness({ limits: { register: false }, appSchemes: [] });
    try {
      const response = await fetch(`${strict.issuer}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: CURSOR, token_endpoint_auth_method: "none" }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error_description: string }).error_description).toMatch(/cursor: scheme/);
    } finally {
      await strict.close();
    }
  });

  it("never admits a scheme the operating system runs programs with, even when listed", async () => {
    const withSchemes = (appSchemes: string[]) => () =>
      createAuthorizationServer({
        issuer: "http://127.0.0.1:9",
        resources: ["http://127.0.0.1:9/mcp"],
        upstream: developmentUpstream(),
        appSchemes,
      });
    expect(withSchemes(["ms-msdt"])).toThrow(/"ms-msdt:" cannot be a private-use/);
    expect(withSchemes(["javascript"])).toThrow(/cannot be a private-use/);
    expect(withSchemes(["itms-services"])).toThrow(/"itms-services:" cannot be a private-use/);
    expect(withSchemes(["Bad Scheme"])).toThrow(/is not a URI scheme/);
  });
});

describe("client ID metadata documents (development: documents on loopback)", () => {
  let docs: Server;
  let base = "";
  beforeAll(async () => {
    docs = createServer((req, res) => {
      const self = `${base}${req.url}`;
      const uri = decodeURIComponent(new URL(self).searchParams.get("uri") ?? REDIRECT);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ client_id: self, client_name: "Doc", redirect_uris: [uri] }));
    });
    await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    docs.closeAllConnections();
    await new Promise<void>((resolve) => docs.close(() => resolve()));
  });

  /** /authorize for the document at /client.json?uri=…, asking to return to `uri`. */
  async function authorizeWith(uri: string) {
    const clientId = `${base}/client.json?uri=${encodeURIComponent(uri)}`;
    const url = rawClient(h).authorizationUrl(
      { client_id: clientId },
      { code_challenge: pkce().challenge, redirect_uri: uri },
    );
    const response = await fetch(url, { redirect: "manual" });
    return { status: response.status, location: response.headers.get("location"), page: await response.text() };
  }

  it.each(REFUSED.filter(([uri]) => !uri.startsWith("/")))(
    "refuses a document declaring %s: a page, never a redirect",
    async (uri, says) => {
      const answer = await authorizeWith(uri);
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.page).toContain("The client metadata document at");
      expect(answer.page).toMatch(says);
    },
  );

  it("accepts a document declaring a native app's reverse-domain scheme", async () => {
    const answer = await authorizeWith("com.example.app:/oauth2redirect");
    expect(answer.status).toBe(200);
    expect(answer.page).toContain("Allow Doc");
  });
});
