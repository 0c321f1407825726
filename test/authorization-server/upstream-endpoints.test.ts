import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { oidcUpstream } from "mcpkit/auth";
import { afterAll, beforeAll, expect, it } from "vitest";

// An OpenID provider's discovery document names the endpoints the authorization server then
// calls with its client secret and the person's code. The issuer is the operator's to name,
// wherever it is (here on 127.0.0.1, as a local provider in development would be); an
// endpoint the document names on another origin is the provider's say-so, and goes through
// the address guard: a name that resolves to an internal address is not reached.

let provider: Server;
let internal: Server;
let issuer = "";
const internalHits: string[] = [];
const providerHits: string[] = [];

beforeAll(async () => {
  internal = createServer((req, res) => {
    internalHits.push(req.url ?? "/");
    res.writeHead(200, { "content-type": "application/json" }).end('{"access_token":"x","token_type":"Bearer"}');
  });
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
  const internalPort = (internal.address() as AddressInfo).port;
  provider = createServer((req, res) => {
    providerHits.push(req.url ?? "/");
    if (req.url === "/.well-known/openid-configuration")
      return res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          // Another origin, whose name resolves to this machine.
          token_endpoint: `http://localhost:${internalPort}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        }),
      );
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(() => {
  provider.close();
  internal.close();
});

it("reaches the issuer as named, but not a token endpoint its discovery names on an internal address", async () => {
  const upstream = oidcUpstream({ issuer, clientId: "as", clientSecret: "the-client-secret" });
  const redirectUri = "http://127.0.0.1:1/callback";
  const begun = await upstream.begin({ redirectUri, state: "s" });
  expect(providerHits).toContain("/.well-known/openid-configuration");
  expect(begun.url?.href.startsWith(`${issuer}/authorize?`)).toBe(true);
  const finishing = upstream.finish(new URLSearchParams({ code: "the-code", state: "s" }), begun.kept, {
    redirectUri,
    state: "s",
  });
  await expect(finishing).rejects.toThrow("localhost resolves to a private or reserved address: 127.0.0.1");
  expect(internalHits).toEqual([]);
});
