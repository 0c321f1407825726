import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import {
  hmacNonces,
  InvalidTokenError,
  introspectionVerifier,
  jwtVerifier,
  memoryReplayCache,
  parseChallenges,
  protectedResource,
  type ResourceServerOptions,
} from "mcpkit/auth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// The resource server's checks on what a caller presents, in-process: the JWT verifier
// (issuer, audience, expiry with its leeway, algorithms, the claims it reads), the
// Authorization header's syntax, required scopes, DPoP beside Bearer, the replay window
// and nonces. Each test fails when the check it names is taken out (docs/mutation-testing.md).

afterEach(() => {
  vi.useRealTimers();
});

const ISSUER = "https://as.example";
const RESOURCE = "https://mcp.example/mcp";
let signing: { privateKey: CryptoKey; jwk: JWK };

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  signing = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" } };
});

/** An access token from ISSUER for RESOURCE, valid for an hour unless the claims say otherwise. */
function token(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: "ada", iat: now, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: "k1", ...header })
    .sign(signing.privateKey);
}

const verifier = (options: Partial<Parameters<typeof jwtVerifier>[0]> = {}) =>
  jwtVerifier({ jwks: { keys: [signing.jwk] }, issuer: ISSUER, audience: RESOURCE, ...options });

async function refusal(check: Promise<unknown>): Promise<Error> {
  try {
    await check;
  } catch (error) {
    return error as Error;
  }
  throw new Error("accepted");
}

describe("jwtVerifier", () => {
  it("needs keys: a JWKS URL or the keys themselves", () => {
    expect(() => jwtVerifier({ issuer: ISSUER, audience: RESOURCE })).toThrow(
      new TypeError("jwtVerifier needs jwksUrl or jwks"),
    );
  });

  it("reads the subject, the client (client_id, else azp), the scopes and the expiry", async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const info = await verifier()(await token({ client_id: "app", azp: "other", scope: "a  b ", exp }));
    expect(info).toMatchObject({ subject: "ada", clientId: "app", scopes: ["a", "b"], expiresAt: exp * 1000 });
    const viaAzp = await verifier()(await token({ azp: "web", scp: ["x", 7, "y"] }));
    expect(viaAzp).toMatchObject({ clientId: "web", scopes: ["x", "y"] });
    const bare = await verifier()(await token({ sub: undefined, exp: undefined, client_id: 42 }));
    expect(bare).toStrictEqual({ token: expect.any(String), issuer: ISSUER, scopes: [], claims: expect.any(Object) });
  });

  it("refuses another issuer or another audience, as an InvalidTokenError that says why", async () => {
    for (const claims of [{ iss: "https://evil.example" }, { aud: "https://mcp.example/other" }]) {
      const error = await refusal(verifier()(await token(claims)));
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect(error.message).toMatch(/^The access token is not valid here: unexpected "(iss|aud)" claim value/);
      expect(error.cause).toBeInstanceOf(Error);
    }
  });

  it("tolerates 30 s of clock difference by default, and what it is told", async () => {
    const now = Math.floor(Date.now() / 1000);
    const lately = await token({ exp: now - 10 });
    await expect(verifier()(lately)).resolves.toMatchObject({ subject: "ada" });
    await expect(verifier({ clockToleranceSec: 0 })(lately)).rejects.toThrow(/"exp" claim timestamp check failed/);
    await expect(verifier()(await token({ exp: now - 40 }))).rejects.toThrow(/"exp"/);
  });

  it("accepts only the algorithms it is given", async () => {
    await expect(verifier({ algorithms: ["ES256"] })(await token())).resolves.toBeDefined();
    await expect(verifier({ algorithms: ["RS256"] })(await token())).rejects.toThrow(/"alg" \(Algorithm\)/);
  });
});

describe("protectedResource.authenticate", () => {
  const request = (authorization?: string, extra: Record<string, string> = {}) => ({
    method: "POST",
    url: RESOURCE,
    headers: new Headers({ ...(authorization && { authorization }), ...extra }),
  });
  const resource = (options: Partial<ResourceServerOptions> = {}) =>
    protectedResource({ verifier: verifier(), resource: RESOURCE, authorizationServers: [ISSUER], ...options });
  const status = (answer: unknown) => (answer instanceof Response ? answer.status : 200);

  it("takes `Bearer <token>` with any spacing and case of the scheme, and nothing else around it", async () => {
    const t = await token();
    for (const header of [`Bearer ${t}`, `bearer   ${t}`, `BEARER ${t}  `]) {
      expect(status(await resource().authenticate(request(header)))).toBe(200);
    }
    for (const header of [`Bearer${t}`, `xBearer ${t}`, `Basic x, Bearer ${t}`, `Bearer ${t} extra`, t]) {
      const answer = await resource().authenticate(request(header));
      expect(status(answer)).toBe(401);
      expect(await (answer as Response).json()).toEqual({
        error: "invalid_token",
        error_description: "This server needs an access token in the Authorization header",
      });
    }
  });

  it("refuses a token the verifier refuses with 401 invalid_token and the verifier's reason", async () => {
    const answer = (await resource().authenticate(request(`Bearer ${await token({ aud: "x" })}`))) as Response;
    expect(answer.status).toBe(401);
    expect(parseChallenges(answer.headers.get("www-authenticate"))[0]?.params.error).toBe("invalid_token");
    expect(((await answer.json()) as { error_description: string }).error_description).toMatch(
      /^The access token is not valid here/,
    );
  });

  it("answers 403 insufficient_scope when a required scope is missing, naming the required ones", async () => {
    const strict = resource({ requiredScopes: ["mcp:use", "mcp:read"] });
    const both = await strict.authenticate(request(`Bearer ${await token({ scope: "mcp:read other mcp:use" })}`));
    expect(both).toMatchObject({ subject: "ada" });
    const answer = (await strict.authenticate(request(`Bearer ${await token({ scope: "mcp:read" })}`))) as Response;
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({
      error: "insufficient_scope",
      error_description: "This needs the scope mcp:use",
    });
    expect(parseChallenges(answer.headers.get("www-authenticate"))[0]?.params).toMatchObject({
      error: "insufficient_scope",
      scope: "mcp:use mcp:read",
    });
  });

  describe("with DPoP accepted beside Bearer", () => {
    async function proofKey() {
      const { publicKey, privateKey } = await generateKeyPair("ES256");
      const jwk = await exportJWK(publicKey);
      return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, "sha256") };
    }
    const ath = (t: string) => createHash("sha256").update(t).digest("base64url");
    const proof = (key: Awaited<ReturnType<typeof proofKey>>, claims: Record<string, unknown>) =>
      new SignJWT({ jti: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000), htm: "POST", ...claims })
        .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk })
        .sign(key.privateKey);

    it("still accepts a plain Bearer token, and refuses a bound one presented as Bearer", async () => {
      const key = await proofKey();
      const optional = resource({ dpop: true });
      expect(status(await optional.authenticate(request(`Bearer ${await token()}`)))).toBe(200);
      const bound = (await optional.authenticate(
        request(`Bearer ${await token({ cnf: { jkt: key.jkt } })}`),
      )) as Response;
      expect(bound.status).toBe(401);
      expect(((await bound.json()) as { error_description: string }).error_description).toBe(
        "This access token is DPoP-bound: send it with the DPoP scheme and a proof",
      );
    });

    it("accepts a proof naming the public URL when the request arrived at another (a proxy)", async () => {
      const key = await proofKey();
      const bound = await token({ cnf: { jkt: key.jkt } });
      const behindProxy = { ...request(`DPoP ${bound}`), url: "http://10.0.0.5:8080/mcp" };
      const p = await proof(key, { htu: RESOURCE, ath: ath(bound) });
      behindProxy.headers.set("dpop", p);
      expect(await resource({ dpop: true }).authenticate(behindProxy)).toMatchObject({ subject: "ada" });
    });

    it("remembers a proof for as long as it could be accepted: a replay at the window's end is refused", async () => {
      vi.useFakeTimers({ now: new Date("2026-08-01T00:00:00Z"), toFake: ["Date"] });
      const key = await proofKey();
      const bound = await token({ cnf: { jkt: key.jkt } });
      const p = await proof(key, { htu: RESOURCE, ath: ath(bound) });
      const server = resource({ dpop: { proofMaxAgeSec: 60, clockToleranceSec: 5 } });
      const send = () => server.authenticate(request(`DPoP ${bound}`, { dpop: p }));
      expect(await send()).toMatchObject({ subject: "ada" });
      // 65 s on, the proof's iat is still inside the window (60 s + 5 s of leeway).
      vi.setSystemTime(new Date("2026-08-01T00:01:05Z"));
      const replay = (await send()) as Response;
      expect(replay.status).toBe(401);
      expect(((await replay.json()) as { error_description: string }).error_description).toBe(
        "This DPoP proof was used before; make a fresh one",
      );
    });

    it("refuses a proof that is not a JWT, has no key, a short or no jti, no iat, or an algorithm not allowed", async () => {
      const key = await proofKey();
      const bound = await token({ cnf: { jkt: key.jkt } });
      const claims = { htu: RESOURCE, ath: ath(bound) };
      const now = Math.floor(Date.now() / 1000);
      const signed = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
        new SignJWT({ htm: "POST", ...claims, ...payload })
          .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk, ...header })
          .sign(key.privateKey);
      const cases: [string, string][] = [
        ["not.a.jwt", "The DPoP proof is not a JWT"],
        [await signed({ jti: crypto.randomUUID(), iat: now }, { jwk: undefined }), "The DPoP proof has no jwk header"],
        [await signed({ jti: "1234567", iat: now }), "The DPoP proof has no jti"],
        [await signed({ iat: now }), "The DPoP proof has no jti"],
        [await signed({ jti: crypto.randomUUID() }), "The DPoP proof has no iat"],
        [
          await signed({ jti: crypto.randomUUID(), iat: now, htu: "not a url" }),
          "The DPoP proof is for not a url, not for this URL",
        ],
        [
          await signed({ jti: crypto.randomUUID(), iat: now, htu: [RESOURCE] }),
          `The DPoP proof is for ${RESOURCE}, not for this URL`,
        ],
      ];
      const server = resource({ dpop: true });
      for (const [p, message] of cases) {
        const answer = (await server.authenticate(request(`DPoP ${bound}`, { dpop: p }))) as Response;
        expect(answer.status).toBe(401);
        expect(((await answer.json()) as { error_description: string }).error_description).toBe(message);
      }
      const onlyEdDsa = resource({ dpop: { algorithms: ["EdDSA"] } });
      const answer = (await onlyEdDsa.authenticate(
        request(`DPoP ${bound}`, { dpop: await proof(key, claims) }),
      )) as Response;
      expect(((await answer.json()) as { error_description: string }).error_description).toBe(
        "The DPoP proof's algorithm must be one of EdDSA",
      );
    });

    it("accepts a proof up to the clock tolerance ahead, and not a second more", async () => {
      vi.useFakeTimers({ now: new Date("2026-08-01T00:00:00Z"), toFake: ["Date"] });
      const key = await proofKey();
      const bound = await token({ cnf: { jkt: key.jkt } });
      const now = Math.floor(Date.now() / 1000);
      const server = resource({ dpop: { clockToleranceSec: 5 } });
      const send = async (iat: number) =>
        server.authenticate(
          request(`DPoP ${bound}`, { dpop: await proof(key, { htu: RESOURCE, ath: ath(bound), iat }) }),
        );
      expect(await send(now + 5)).toMatchObject({ subject: "ada" });
      expect(((await send(now + 6)) as Response).status).toBe(401);
    });

    it("asks for a nonce when the proof's nonce is not a string", async () => {
      const key = await proofKey();
      const bound = await token({ cnf: { jkt: key.jkt } });
      const p = await proof(key, { htu: RESOURCE, ath: ath(bound), nonce: 12345 });
      const answer = (await resource({ dpop: { nonce: true } }).authenticate(
        request(`DPoP ${bound}`, { dpop: p }),
      )) as Response;
      expect(answer.status).toBe(401);
      expect(answer.headers.get("dpop-nonce")).toBeTruthy();
    });
  });
});

describe("DPoP nonces and the replay cache at their edges", () => {
  const SECRET = "a secret of at least thirty-two bytes!!";

  it("refuses a nonce without its stamp, its tag, or with more parts", () => {
    vi.useFakeTimers({ now: new Date("2026-08-01T00:00:00Z"), toFake: ["Date"] });
    const nonces = hmacNonces(SECRET);
    const [stamp, tag] = nonces.issue().split(".") as [string, string];
    expect(nonces.valid(`${stamp}.${tag}`)).toBe(true);
    for (const bad of [`${stamp}.`, `.${tag}`, `${stamp}.${tag}.x`, stamp, ""]) expect(nonces.valid(bad)).toBe(false);
  });

  it("accepts a nonce from 0 to lifetimeSec seconds old, and up to 5 s from the future (another node's clock)", () => {
    vi.useFakeTimers({ now: new Date("2026-08-01T00:00:00Z"), toFake: ["Date"] });
    const nonces = hmacNonces(Buffer.from(SECRET), 100);
    const nonce = hmacNonces(SECRET, 100).issue(); // the same secret as text or bytes
    vi.setSystemTime(new Date("2026-08-01T00:01:40Z"));
    expect(nonces.valid(nonce)).toBe(true);
    vi.setSystemTime(new Date("2026-08-01T00:01:41Z"));
    expect(nonces.valid(nonce)).toBe(false);
    vi.setSystemTime(new Date("2026-07-31T23:59:55Z"));
    expect(nonces.valid(nonce)).toBe(true);
    vi.setSystemTime(new Date("2026-07-31T23:59:54Z"));
    expect(nonces.valid(nonce)).toBe(false);
    expect(() => hmacNonces("x".repeat(31))).toThrow(new RangeError("The DPoP nonce secret must be at least 32 bytes"));
  });

  it("forgets an id at its expiry exactly, and a full cache makes room then", () => {
    vi.useFakeTimers({ now: 0, toFake: ["Date"] });
    const cache = memoryReplayCache(1);
    expect(cache.add("a", 1000)).toBe(true);
    vi.setSystemTime(999);
    expect(cache.add("a", 2000)).toBe(false);
    expect(cache.add("b", 2000)).toBe(false); // full of a live id: fails closed
    vi.setSystemTime(1000);
    expect(cache.add("b", 2000)).toBe(true);
    vi.setSystemTime(2000);
    expect(cache.add("b", 3000)).toBe(true);
  });
});

describe("introspectionVerifier", () => {
  const asked: URLSearchParams[] = [];
  const headersSeen: Record<string, unknown>[] = [];
  const answers: Record<string, { status?: number; body: Record<string, unknown> }> = {};
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    asked.push(form);
    headersSeen.push(req.headers);
    const answer = answers[form.get("token") ?? ""] ?? { body: { active: false } };
    res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  let endpoint = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const verify = (options: { cacheSeconds?: number; endpoint?: string } = {}) =>
    introspectionVerifier({ endpoint, clientId: "rs", clientSecret: "s", audience: RESOURCE, ...options });
  const later = () => Math.floor(Date.now() / 1000) + 600;

  it("reads an active token for this audience, among others, and asks about it as an access token", async () => {
    const exp = later();
    answers.good = {
      body: { active: true, sub: "ada", client_id: "app", scope: "a b", aud: ["https://x.example", RESOURCE], exp },
    };
    expect(await verify()("good")).toMatchObject({
      subject: "ada",
      clientId: "app",
      scopes: ["a", "b"],
      expiresAt: exp * 1000,
    });
    expect(asked.at(-1)?.get("token_type_hint")).toBe("access_token");
  });

  it("refuses a token past its exp or for no audience; an endpoint that fails is the server's failure, not a bad token", async () => {
    answers.expired = { body: { active: true, aud: RESOURCE, exp: Math.floor(Date.now() / 1000) - 1 } };
    answers.nobody = { body: { active: true } };
    answers.broken = { status: 500, body: {} };
    await expect(verify()("expired")).rejects.toThrow(new InvalidTokenError("The access token has expired"));
    await expect(verify()("nobody")).rejects.toThrow(
      new InvalidTokenError(`The access token was issued for no audience, not for ${RESOURCE}`),
    );
    // Not InvalidTokenError: the resource server answers 401 without the detail and reports the cause to onError.
    const broken = await verify()("broken").catch((error: unknown) => error);
    expect(broken).toBeInstanceOf(Error);
    expect(broken).not.toBeInstanceOf(InvalidTokenError);
    expect((broken as Error).message).toBe("Token introspection failed with HTTP 500");
    await expect(verify({ endpoint: "http://127.0.0.1:1/introspect" })("good")).rejects.toThrow(
      /^Token introspection failed: /,
    );
  });

  it("sets only what the answer says, sends a form asking for JSON, and keeps the cause of a failure", async () => {
    answers.bare = { body: { active: true, aud: RESOURCE } };
    expect(await verify()("bare")).toStrictEqual({ token: "bare", scopes: [], claims: answers.bare.body });
    expect(headersSeen.at(-1)).toMatchObject({
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    });
    const error = await refusal(verify({ endpoint: "http://127.0.0.1:1/introspect" })("bare"));
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("accepts a token until the second of its exp", async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    answers.edge = { body: { active: true, aud: RESOURCE, exp } };
    vi.useFakeTimers({ now: exp * 1000, toFake: ["Date"] });
    await expect(verify()("edge")).resolves.toMatchObject({ expiresAt: exp * 1000 });
  });

  it("asks every time, unless told to reuse an answer for cacheSeconds", async () => {
    vi.useFakeTimers({ now: Date.now(), toFake: ["Date"] });
    answers.cached = { body: { active: true, aud: RESOURCE, exp: later() } };
    const count = () => asked.filter((form) => form.get("token") === "cached").length;
    const fresh = verify();
    await fresh("cached");
    await fresh("cached");
    expect(count()).toBe(2);
    const reusing = verify({ cacheSeconds: 30 });
    await reusing("cached");
    vi.setSystemTime(Date.now() + 29_999);
    await reusing("cached");
    expect(count()).toBe(3);
    vi.setSystemTime(Date.now() + 1);
    await reusing("cached");
    expect(count()).toBe(4);
  });
});
