import { createHash } from "node:crypto";
import {
  type CryptoKey,
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
} from "jose";
import {
  memoryStorage,
  OAuthClient,
  type OAuthStorage,
  parseChallenges,
  type ResourceServerOptions,
} from "mcpkit/auth";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { initialize, perTestAuthorizationServer, post, protectedMcp } from "./helpers.js";

const fx = perTestAuthorizationServer();

function server() {
  const s = createServer({ name: "vault", version: "1" });
  s.tool("whoami", { scopes: ["tools:read"] }, (_a, ctx) => `you are ${(ctx.auth as { subject?: string }).subject}`);
  return s;
}

const browser = async (authorizationUrl: URL) => {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  return new URL(response.headers.get("location") as string);
};

/** A fetch that records each request's method, URL and headers before sending it. */
function recordingFetch() {
  const sent: { method: string; url: string; headers: Headers; status?: number }[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const entry = {
      method: init?.method ?? "GET",
      url: input instanceof Request ? input.url : String(input),
      headers: new Headers(init?.headers),
    } as (typeof sent)[number];
    sent.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    return response;
  };
  return { sent, fetchImpl };
}

async function login(
  url: string,
  fetchImpl: typeof fetch,
  protocolVersion: "2025-11-25" | "2026-07-28",
  storage: OAuthStorage = memoryStorage(),
) {
  const oauth = new OAuthClient({
    serverUrl: url,
    storage,
    redirectUri: "http://127.0.0.1:9/callback",
    redirect: browser,
    fetch: fetchImpl,
  });
  const client = new Client({ name: "dpop-test", version: "1", protocolVersion });
  await client.connect(streamableHttpClientTransport(url, { auth: oauth, fetch: fetchImpl }));
  fx.closers.push(() => client.close());
  return { client, oauth };
}

describe.each(["2025-11-25", "2026-07-28"] as const)("DPoP end to end (%s)", (protocolVersion) => {
  it("binds the token to the client's key and proves possession afresh on every request", async () => {
    fx.as.dpop = true;
    const mcp = await protectedMcp(server(), fx.as, { dpop: true });
    fx.closers.push(mcp.close);
    const { sent, fetchImpl } = recordingFetch();
    const { client, oauth } = await login(mcp.url, fetchImpl, protocolVersion);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);

    // The token request carried a proof, and the token is bound to that proof's key.
    const tokens = await oauth.tokens();
    expect(tokens?.token_type.toLowerCase()).toBe("dpop");
    const tokenProof = sent.find((r) => r.url === `${fx.as.issuer}/token`)?.headers.get("dpop") as string;
    const proofKey = decodeProtectedHeader(tokenProof).jwk as JWK;
    const cnf = decodeJwt(tokens?.access_token as string).cnf as { jkt: string };
    expect(cnf.jkt).toBe(await calculateJwkThumbprint(proofKey, "sha256"));
    expect(proofKey.d).toBeUndefined();

    // Every request to the MCP server: the DPoP scheme and a fresh, matching proof.
    const authorized = sent.filter((r) => r.url.startsWith(mcp.url) && r.headers.has("authorization"));
    expect(authorized.length).toBeGreaterThanOrEqual(2);
    const ath = createHash("sha256")
      .update(tokens?.access_token as string)
      .digest("base64url");
    const jtis = new Set<string>();
    for (const request of authorized) {
      expect(request.headers.get("authorization")).toBe(`DPoP ${tokens?.access_token}`);
      const claims = decodeJwt(request.headers.get("dpop") as string);
      expect(claims).toMatchObject({ htm: request.method, htu: mcp.url, ath });
      jtis.add(claims.jti as string);
    }
    expect(jtis.size).toBe(authorized.length);
  });

  it("never sends a bound token it holds no key for (another client sharing the storage)", async () => {
    fx.as.dpop = true;
    const mcp = await protectedMcp(server(), fx.as, { dpop: true });
    fx.closers.push(mcp.close);
    const storage = memoryStorage();
    const { oauth } = await login(mcp.url, fetch, protocolVersion, storage);
    expect((await oauth.tokens())?.dpop_jkt).toBeTruthy();
    const other = new OAuthClient({
      serverUrl: mcp.url,
      storage,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
    });
    expect(await other.accessToken()).toBeUndefined();
    // Asked to make a request, it authorizes again with its own key instead.
    const { sent, fetchImpl } = recordingFetch();
    await login(mcp.url, fetchImpl, protocolVersion, storage);
    expect(sent.filter((r) => r.url === `${fx.as.issuer}/token`)).toHaveLength(1);
    expect(sent.filter((r) => r.headers.get("authorization")?.startsWith("Bearer")).map((r) => r.url)).toEqual([]);
  });

  it("sends a stored token bound to the key it was given from the first request, as a later process would", async () => {
    fx.as.dpop = true;
    const mcp = await protectedMcp(server(), fx.as, { dpop: true });
    fx.closers.push(mcp.close);
    const storage = memoryStorage();
    const keyPair = await generateKeyPair("ES256");
    const first = new OAuthClient({
      serverUrl: mcp.url,
      storage,
      redirectUri: "http://127.0.0.1:9/callback",
      redirect: browser,
      dpop: { keyPair, alg: "ES256" },
    });
    const client = new Client({ name: "dpop-test", version: "1", protocolVersion });
    await client.connect(streamableHttpClientTransport(mcp.url, { auth: first }));
    fx.closers.push(() => client.close());
    const bound = await first.tokens();
    expect(bound?.dpop_jkt).toBe(await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), "sha256"));

    // Another client (the next run) with the same storage and key: no 401, no new grant, the same token.
    let keyAsked = 0;
    const { sent, fetchImpl } = recordingFetch();
    const next = new OAuthClient({
      serverUrl: mcp.url,
      storage,
      fetch: fetchImpl,
      dpop: async () => {
        keyAsked++;
        return { keyPair, alg: "ES256" };
      },
    });
    expect(await next.accessToken()).toBe(bound?.access_token);
    const again = new Client({ name: "dpop-test", version: "1", protocolVersion });
    await again.connect(streamableHttpClientTransport(mcp.url, { auth: next, fetch: fetchImpl }));
    fx.closers.push(() => again.close());
    expect((await again.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);
    expect(sent.map((r) => r.status)).not.toContain(401);
    expect(sent[0]?.headers.get("authorization")).toBe(`DPoP ${bound?.access_token}`);
    expect(keyAsked).toBe(1);
  });

  it("retries with the nonce the authorization server and the MCP server ask for", async () => {
    fx.as.dpop = true;
    fx.as.dpopNonce = "as-nonce-1";
    const mcp = await protectedMcp(server(), fx.as, { dpop: { required: true, nonce: true } });
    fx.closers.push(mcp.close);
    const { sent, fetchImpl } = recordingFetch();
    const { client } = await login(mcp.url, fetchImpl, protocolVersion);
    expect((await client.callTool("whoami")).content).toEqual([{ type: "text", text: "you are user-ada" }]);

    // Token endpoint: once without a nonce (use_dpop_nonce), once with it.
    const tokenRequests = sent.filter((r) => r.url === `${fx.as.issuer}/token`);
    expect(tokenRequests.map((r) => [r.status, decodeJwt(r.headers.get("dpop") as string).nonce])).toEqual([
      [400, undefined],
      [200, "as-nonce-1"],
    ]);
    // MCP server: the first proof lacks its nonce, every later one carries it.
    const authorized = sent.filter((r) => r.url.startsWith(mcp.url) && r.headers.has("dpop"));
    expect(authorized[0]?.status).toBe(401);
    expect(decodeJwt(authorized[0]?.headers.get("dpop") as string).nonce).toBeUndefined();
    const later = authorized.slice(1);
    expect(later.length).toBeGreaterThan(0);
    for (const request of later) {
      expect(request.status).not.toBe(401);
      expect(typeof decodeJwt(request.headers.get("dpop") as string).nonce).toBe("string");
    }
  });
});

/** A DPoP proof made by hand, so every claim can be wrong in turn. */
async function proofOf(
  key: { privateKey: CryptoKey; jwk: JWK },
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
) {
  return new SignJWT({ jti: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk, ...header })
    .sign(key.privateKey);
}

async function newKey() {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

describe("a resource server accepting DPoP (RFC 9449 §7)", () => {
  async function setup(dpop: ResourceServerOptions["dpop"] = true) {
    const mcp = await protectedMcp(server(), fx.as, { dpop });
    fx.closers.push(mcp.close);
    const key = await newKey();
    const token = await fx.as.sign({ aud: mcp.url, sub: "user-ada", scope: "tools:read", cnf: { jkt: key.jkt } });
    const ath = createHash("sha256").update(token).digest("base64url");
    const good = (extra: Record<string, unknown> = {}) => proofOf(key, { htm: "POST", htu: mcp.url, ath, ...extra });
    const send = (proof: string | undefined, scheme = "DPoP", bearer = token) =>
      post(mcp.url, initialize, {
        authorization: `${scheme} ${bearer}`,
        ...(proof !== undefined && { dpop: proof }),
      });
    return { mcp, key, token, ath, good, send };
  }

  const errorOf = (response: Response) =>
    parseChallenges(response.headers.get("www-authenticate")).find((c) => c.scheme === "dpop")?.params.error;

  it("answers a request with a valid proof, and advertises DPoP in its metadata and challenges", async () => {
    const { mcp, good, send } = await setup();
    expect((await send(await good())).status).toBe(200);
    const metadata = (await (await fetch(mcp.resource.metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata.dpop_signing_alg_values_supported).toContain("ES256");
    expect(metadata.dpop_bound_access_tokens_required).toBe(false);
    const anonymous = await post(mcp.url, initialize);
    const schemes = parseChallenges(anonymous.headers.get("www-authenticate")).map((c) => c.scheme);
    expect(schemes).toEqual(["bearer", "dpop"]);
  });

  it("refuses a replayed proof", async () => {
    const { good, send } = await setup();
    const proof = await good();
    expect((await send(proof)).status).toBe(200);
    const replay = await send(proof);
    expect(replay.status).toBe(401);
    expect(errorOf(replay)).toBe("invalid_dpop_proof");
  });

  it("refuses a proof made for another URL or another method", async () => {
    const { mcp, good, send } = await setup();
    const otherUrl = await send(await good({ htu: new URL("/other", mcp.url).href }));
    expect(otherUrl.status).toBe(401);
    expect(errorOf(otherUrl)).toBe("invalid_dpop_proof");
    expect((await send(await good({ htm: "GET" }))).status).toBe(401);
  });

  it("refuses a bound token without its proof, with two proofs, or presented as a Bearer token", async () => {
    const { good, send } = await setup();
    const noProof = await send(undefined);
    expect(noProof.status).toBe(401);
    expect(errorOf(noProof)).toBe("invalid_dpop_proof");
    // Two proofs (RFC 9449 §4.3: exactly one DPoP header), each valid on its own.
    const two = await send(`${await good()}, ${await good()}`);
    expect(((await two.json()) as { error_description: string }).error_description).toMatch(/exactly one/);
    const asBearer = await send(undefined, "Bearer");
    expect(asBearer.status).toBe(401);
    expect(parseChallenges(asBearer.headers.get("www-authenticate"))[0]?.params.error).toBe("invalid_token");
  });

  it("refuses a proof by another key, for another token, stale, or not a public-key proof", async () => {
    const { mcp, ath, good, send } = await setup();
    const stranger = await newKey();
    const otherKey = await send(await proofOf(stranger, { htm: "POST", htu: mcp.url, ath }));
    expect(otherKey.status).toBe(401);
    expect(errorOf(otherKey)).toBe("invalid_token");
    const otherToken = await send(await good({ ath: createHash("sha256").update("another").digest("base64url") }));
    expect(errorOf(otherToken)).toBe("invalid_dpop_proof");
    const now = Math.floor(Date.now() / 1000);
    expect(errorOf(await send(await good({ iat: now - 600 })))).toBe("invalid_dpop_proof");
    expect(errorOf(await send(await good({ iat: now + 600 })))).toBe("invalid_dpop_proof");
    const tampered = (await good()).replace(
      /\.[^.]+\./,
      `.${Buffer.from(JSON.stringify({ htm: "POST" })).toString("base64url")}.`,
    );
    expect(errorOf(await send(tampered))).toBe("invalid_dpop_proof");
    // The same key, properly used, still works: the refusals above were about the proofs.
    expect((await send(await good())).status).toBe(200);
  });

  it("refuses a proof whose header carries a private key or the wrong type", async () => {
    const { mcp, ath, key, send } = await setup();
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const withPrivate = await proofOf({ privateKey, jwk: privateJwk }, { htm: "POST", htu: mcp.url, ath });
    const refused = await send(withPrivate);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error_description: string }).error_description).toMatch(/not a public key/);
    const wrongType = await proofOf(key, { htm: "POST", htu: mcp.url, ath }, { typ: "JWT" });
    expect((await send(wrongType)).status).toBe(401);
  });

  it("asks for a nonce, accepts the one it issued, and refuses a made-up one", async () => {
    const { good, send } = await setup({ nonce: true });
    const first = await send(await good());
    expect(first.status).toBe(401);
    expect(errorOf(first)).toBe("use_dpop_nonce");
    const nonce = first.headers.get("dpop-nonce") as string;
    expect(nonce).toBeTruthy();
    expect((await send(await good({ nonce }))).status).toBe(200);
    const forged = await send(await good({ nonce: `${nonce.split(".")[0]}.forged` }));
    expect(errorOf(forged)).toBe("use_dpop_nonce");
  });

  it("refuses unbound Bearer tokens when DPoP is required, naming only the DPoP scheme", async () => {
    const { mcp, send } = await setup({ required: true });
    const unbound = await fx.as.sign({ aud: mcp.url, sub: "user-ada", scope: "tools:read" });
    const response = await send(undefined, "Bearer", unbound);
    expect(response.status).toBe(401);
    expect(parseChallenges(response.headers.get("www-authenticate")).map((c) => c.scheme)).toEqual(["dpop"]);
  });

  it("refuses a DPoP proof when DPoP is off", async () => {
    const mcp = await protectedMcp(server(), fx.as);
    fx.closers.push(mcp.close);
    const key = await newKey();
    const token = await fx.as.sign({ aud: mcp.url, sub: "user-ada", scope: "tools:read", cnf: { jkt: key.jkt } });
    const proof = await proofOf(key, { htm: "POST", htu: mcp.url });
    const response = await post(mcp.url, initialize, { authorization: `DPoP ${token}`, dpop: proof });
    expect(response.status).toBe(401);
  });
});
