import { createHash, randomBytes } from "node:crypto";
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, REDIRECT, rawClient, startHarness, statusOf } from "./harness.js";

// DPoP at the authorization server (RFC 9449 §5): a token request with a valid proof gets
// tokens bound to the proof's key, which the MCP server then accepts only with a fresh
// proof of that key; a refresh must prove the same key.

let h: Harness;
let client: ReturnType<typeof rawClient>;
beforeEach(async () => {
  h = await startHarness();
  client = rawClient(h);
});
afterEach(async () => {
  await h.close();
});

async function dpopKey() {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = await exportJWK(publicKey);
  return {
    jkt: await calculateJwkThumbprint(jwk, "sha256"),
    proof: (method: string, url: string, accessToken?: string) =>
      new SignJWT({
        jti: randomBytes(16).toString("base64url"),
        htm: method,
        htu: url,
        ...(accessToken && { ath: createHash("sha256").update(accessToken).digest("base64url") }),
      })
        .setProtectedHeader({ typ: "dpop+jwt", alg: "ES256", jwk })
        .setIssuedAt()
        .sign(privateKey),
  };
}

describe("DPoP-bound tokens", () => {
  it("are issued for a valid proof, and accepted at the MCP server only with a proof of that key", async () => {
    const key = await dpopKey();
    const registered = await client.register();
    const { code, verifier } = await client.code(registered);
    const answer = await client.token(
      {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: registered.client_id,
      },
      { dpop: await key.proof("POST", `${h.issuer}/token`) },
    );
    expect(answer).toMatchObject({ status: 200, body: { token_type: "DPoP" } });
    const token = answer.body.access_token as string;
    expect(decodeJwt(token).cnf).toEqual({ jkt: key.jkt });
    expect(
      await statusOf(h.resource, { authorization: `DPoP ${token}`, dpop: await key.proof("POST", h.resource, token) }),
    ).toBe(200);
    // Stolen and sent as a Bearer token, or with another key's proof: refused.
    expect(await statusOf(h.resource, { authorization: `Bearer ${token}` })).toBe(401);
    const other = await dpopKey();
    expect(
      await statusOf(h.resource, {
        authorization: `DPoP ${token}`,
        dpop: await other.proof("POST", h.resource, token),
      }),
    ).toBe(401);
  });

  it("bind the refresh token too: refreshing needs a proof of the same key", async () => {
    const key = await dpopKey();
    const registered = await client.register();
    const { code, verifier } = await client.code(registered);
    const tokens = await client.token(
      {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: registered.client_id,
      },
      { dpop: await key.proof("POST", `${h.issuer}/token`) },
    );
    const refresh = {
      grant_type: "refresh_token",
      refresh_token: tokens.body.refresh_token,
      client_id: registered.client_id,
    };
    expect((await client.token(refresh)).body.error).toBe("invalid_dpop_proof");
    const other = await dpopKey();
    expect((await client.token(refresh, { dpop: await other.proof("POST", `${h.issuer}/token`) })).body.error).toBe(
      "invalid_dpop_proof",
    );
    const refreshed = await client.token(refresh, { dpop: await key.proof("POST", `${h.issuer}/token`) });
    expect(refreshed).toMatchObject({ status: 200, body: { token_type: "DPoP" } });
  });

  it("refuses a proof for another URL, and a proof used twice", async () => {
    const key = await dpopKey();
    const registered = await client.register();
    const first = await client.code(registered);
    const exchange = (code: string, verifier: string) => ({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: registered.client_id,
    });
    const elsewhere = await client.token(exchange(first.code, first.verifier), {
      dpop: await key.proof("POST", `${h.issuer}/other`),
    });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: "invalid_dpop_proof" } });
    const second = await client.code(registered);
    const proof = await key.proof("POST", `${h.issuer}/token`);
    expect((await client.token(exchange(second.code, second.verifier), { dpop: proof })).status).toBe(200);
    const third = await client.code(registered);
    const replayed = await client.token(exchange(third.code, third.verifier), { dpop: proof });
    expect(replayed.body).toMatchObject({
      error: "invalid_dpop_proof",
      error_description: expect.stringContaining("used before"),
    });
  });

  it("dpop_jkt binds the code to a key (RFC 9449 §10): redeemed without it or with another key, refused", async () => {
    const key = await dpopKey();
    const registered = await client.register();
    const bound = await client.code(registered, { dpop_jkt: key.jkt });
    const exchange = {
      grant_type: "authorization_code",
      code: bound.code,
      code_verifier: bound.verifier,
      redirect_uri: REDIRECT,
      client_id: registered.client_id,
    };
    const other = await dpopKey();
    expect((await client.token(exchange, { dpop: await other.proof("POST", `${h.issuer}/token`) })).body.error).toBe(
      "invalid_dpop_proof",
    );
    const again = await client.code(registered, { dpop_jkt: key.jkt });
    const unproven = await client.token({ ...exchange, code: again.code, code_verifier: again.verifier });
    expect(unproven.body.error).toBe("invalid_dpop_proof");
    const last = await client.code(registered, { dpop_jkt: key.jkt });
    const proven = await client.token(
      { ...exchange, code: last.code, code_verifier: last.verifier },
      { dpop: await key.proof("POST", `${h.issuer}/token`) },
    );
    expect(proven.status).toBe(200);
  });
});
