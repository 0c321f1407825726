import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";

/**
 * A small OAuth 2.1 authorization server for tests, on 127.0.0.1: metadata (RFC 8414),
 * dynamic registration, an authorization endpoint that approves at once (redirecting
 * with code, state and iss), PKCE-checked code exchange, refresh, and ES256 JWT access
 * tokens for the requested `resource`; with `trustIdp`, the JWT bearer grant for ID-JAGs
 * (enterprise-managed authorization); with `trustWorkload`, the JWT bearer grant for
 * platform-issued workload tokens; with `dpop`, DPoP-bound tokens (RFC 9449 §5) for
 * requests with a valid proof, and `dpopNonce` demanded in proofs (§8). Everything it did
 * is recorded for assertions.
 */
export interface TestAuthorizationServer {
  issuer: string;
  jwksUrl: string;
  /** Grants seen at the token endpoint, in order. */
  grants: string[];
  /** Client ids issued by dynamic registration, in order. */
  registered: string[];
  /** The token endpoint's requests (their form parameters), in order. */
  tokenRequests: URLSearchParams[];
  /** Replaces entries of the metadata document (RFC 8414), e.g. to drop PKCE S256. */
  metadata: Record<string, unknown>;
  /** Authorization requests seen (their query parameters). */
  authorizations: URLSearchParams[];
  /** Access token lifetime for the next tokens, seconds. */
  tokenLifetime: number;
  /** When set, refresh requests are answered with this status and OAuth error. */
  refreshFailure: { status: number; error: string } | undefined;
  /**
   * "rotate" (default): a refresh answers a new refresh token and the scope, and the old
   * refresh token is spent. "keep": only the access token (RFC 6749 §5.1 lets both be left
   * out), and the old refresh token stays good.
   */
  refreshAnswer: "rotate" | "keep";
  /** The scope a refresh grants (default: the one first granted). */
  refreshScope: string | undefined;
  /** Scopes the next authorizations grant (default: what was asked). */
  grantScopes: string | undefined;
  /** Confidential clients allowed the client_credentials grant: id → secret. */
  machineClients: Map<string, string>;
  /** Accepts ID-JAGs from this IdP, presented by this confidential client. */
  trustIdp: { issuer: string; key: CryptoKey; clientId: string; clientSecret: string } | undefined;
  /** Accepts workload tokens (audience: this issuer) signed by this platform's key, no client authentication. */
  trustWorkload: { issuer: string; key: CryptoKey } | undefined;
  /** Advertises DPoP (ES256) and binds tokens to the key of a valid proof. */
  dpop: boolean;
  /** A nonce every token request's proof must carry (use_dpop_nonce otherwise). */
  dpopNonce: string | undefined;
  /** DPoP proofs seen at the token endpoint (decoded claims), valid or not. */
  dpopProofs: Record<string, unknown>[];
  /** Signs a token directly (for verifier tests). */
  sign(
    claims: Record<string, unknown>,
    options?: { expiresIn?: string | number; issuer?: string; audience?: string },
  ): Promise<string>;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

export async function startAuthorizationServer(): Promise<TestAuthorizationServer> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "ES256", use: "sig" };
  const clients = new Map<string, { redirect_uris: string[] }>();
  const codes = new Map<
    string,
    { challenge: string; clientId: string; redirectUri: string; resource: string; scope: string }
  >();
  const refreshTokens = new Map<string, { clientId: string; resource: string; scope: string; subject: string }>();
  let issuer = "";
  const state: TestAuthorizationServer = {
    issuer: "",
    jwksUrl: "",
    grants: [],
    tokenRequests: [],
    registered: [],
    metadata: {},
    authorizations: [],
    tokenLifetime: 3600,
    refreshFailure: undefined,
    refreshAnswer: "rotate",
    refreshScope: undefined,
    grantScopes: undefined,
    trustIdp: undefined,
    trustWorkload: undefined,
    dpop: false,
    dpopNonce: undefined,
    dpopProofs: [],
    machineClients: new Map(),
    sign: (claims, options = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid: "test-key" })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? String(claims.aud ?? ""))
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? "1h")
        .sign(privateKey),
    close: async () => {},
  };

  /** RFC 9449 §4.3 at the token endpoint: the thumbprint of a valid proof's key, or why it is not valid. */
  const checkProof = async (proof: string): Promise<{ jkt: string } | { error: string }> => {
    try {
      const header = decodeProtectedHeader(proof);
      if (header.typ !== "dpop+jwt" || header.alg !== "ES256" || !header.jwk) return { error: "bad header" };
      const { payload } = await jwtVerify(proof, await importJWK(header.jwk, "ES256"));
      state.dpopProofs.push(payload);
      if (payload.htm !== "POST" || payload.htu !== `${issuer}/token` || typeof payload.jti !== "string")
        return { error: "wrong htm, htu or jti" };
      if (typeof payload.iat !== "number" || Math.abs(Date.now() / 1000 - payload.iat) > 60) return { error: "stale" };
      return { jkt: await calculateJwkThumbprint(header.jwk, "sha256") };
    } catch {
      return { error: "unverifiable" };
    }
  };

  const issue = async (
    clientId: string,
    resource: string,
    scope: string,
    subject = "user-ada",
    jkt: string | undefined = undefined,
  ) => {
    const access = await new SignJWT({ scope, client_id: clientId, ...(jkt && { cnf: { jkt } }) })
      .setProtectedHeader({ alg: "ES256", kid: "test-key" })
      .setIssuer(issuer)
      .setSubject(subject)
      .setAudience(resource)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + state.tokenLifetime)
      .sign(privateKey);
    const refresh = randomBytes(16).toString("base64url");
    refreshTokens.set(refresh, { clientId, resource, scope, subject });
    return {
      access_token: access,
      token_type: jkt ? "DPoP" : "Bearer",
      expires_in: state.tokenLifetime,
      refresh_token: refresh,
      scope,
    };
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        scopes_supported: ["tools:read", "tools:admin", "offline_access"],
        authorization_response_iss_parameter_supported: true,
        ...(state.dpop && { dpop_signing_alg_values_supported: ["ES256"] }),
        ...state.metadata,
      });
    }
    if (url.pathname === "/jwks") return json(res, 200, { keys: [jwk] });
    if (url.pathname === "/register" && req.method === "POST") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const metadata = JSON.parse(body) as { redirect_uris: string[] };
      const clientId = `client-${randomBytes(6).toString("hex")}`;
      clients.set(clientId, { redirect_uris: metadata.redirect_uris });
      state.registered.push(clientId);
      return json(res, 201, { ...metadata, client_id: clientId, token_endpoint_auth_method: "none" });
    }
    if (url.pathname === "/authorize") {
      const params = url.searchParams;
      state.authorizations.push(params);
      const client = clients.get(params.get("client_id") ?? "");
      const redirectUri = params.get("redirect_uri") ?? "";
      if (!client?.redirect_uris.includes(redirectUri)) return json(res, 400, { error: "invalid_request" });
      const code = randomBytes(12).toString("base64url");
      codes.set(code, {
        challenge: params.get("code_challenge") ?? "",
        clientId: params.get("client_id") ?? "",
        redirectUri,
        resource: params.get("resource") ?? "",
        scope: state.grantScopes ?? params.get("scope") ?? "",
      });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", params.get("state") ?? "");
      back.searchParams.set("iss", issuer);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const form = await readForm(req);
      const grant = form.get("grant_type") ?? "";
      state.grants.push(grant);
      state.tokenRequests.push(form);
      let jkt: string | undefined;
      const proof = req.headers.dpop;
      if (state.dpop && typeof proof === "string") {
        const checked = await checkProof(proof);
        if ("error" in checked)
          return json(res, 400, { error: "invalid_dpop_proof", error_description: checked.error });
        if (state.dpopNonce && decodeJwt(proof).nonce !== state.dpopNonce) {
          res.writeHead(400, { "content-type": "application/json", "dpop-nonce": state.dpopNonce });
          return res.end(JSON.stringify({ error: "use_dpop_nonce" }));
        }
        jkt = checked.jkt;
      }
      if (grant === "authorization_code") {
        const entry = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!entry || entry.challenge !== challenge || entry.redirectUri !== form.get("redirect_uri")) {
          return json(res, 400, { error: "invalid_grant" });
        }
        if (form.get("resource") !== entry.resource) return json(res, 400, { error: "invalid_target" });
        return json(res, 200, await issue(entry.clientId, entry.resource, entry.scope, undefined, jkt));
      }
      if (grant === "refresh_token") {
        if (state.refreshFailure) return json(res, state.refreshFailure.status, { error: state.refreshFailure.error });
        const entry = refreshTokens.get(form.get("refresh_token") ?? "");
        if (!entry) return json(res, 400, { error: "invalid_grant" });
        const issued = await issue(
          entry.clientId,
          form.get("resource") ?? entry.resource,
          state.refreshScope ?? entry.scope,
          entry.subject,
          jkt,
        );
        if (state.refreshAnswer === "keep") {
          refreshTokens.delete(issued.refresh_token);
          const { refresh_token: _r, scope: _s, ...bare } = issued;
          return json(res, 200, bare);
        }
        refreshTokens.delete(form.get("refresh_token") ?? "");
        return json(res, 200, issued);
      }
      if (grant === "client_credentials") {
        // RFC 6749 §2.3.1: both halves are form-encoded before Base64.
        const pair = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
        const decode = (v: string) => decodeURIComponent(v.replace(/\+/g, " "));
        const id = decode(pair.slice(0, pair.indexOf(":")));
        const secret = decode(pair.slice(pair.indexOf(":") + 1));
        if (!state.machineClients.has(id) || state.machineClients.get(id) !== secret)
          return json(res, 401, { error: "invalid_client" });
        const resource = form.get("resource");
        if (!resource) return json(res, 400, { error: "invalid_target", error_description: "resource is required" });
        return json(res, 200, await issue(id, resource, form.get("scope") ?? "", id));
      }
      if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer" && state.trustWorkload) {
        if (req.headers.authorization) return json(res, 400, { error: "invalid_request" });
        try {
          const { payload } = await jwtVerify(form.get("assertion") ?? "", state.trustWorkload.key, {
            issuer: state.trustWorkload.issuer,
            audience: issuer,
          });
          const resource = form.get("resource") ?? "";
          return json(res, 200, await issue(String(payload.sub), resource, form.get("scope") ?? "", payload.sub, jkt));
        } catch (error) {
          return json(res, 400, { error: "invalid_grant", error_description: (error as Error).message });
        }
      }
      if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer" && state.trustIdp) {
        const trusted = state.trustIdp;
        const basic = `Basic ${Buffer.from(`${trusted.clientId}:${trusted.clientSecret}`).toString("base64")}`;
        if (req.headers.authorization !== basic) return json(res, 401, { error: "invalid_client" });
        const assertion = form.get("assertion") ?? "";
        try {
          if (decodeProtectedHeader(assertion).typ !== "oauth-id-jag+jwt") throw new Error("not an ID-JAG");
          const { payload } = await jwtVerify(assertion, trusted.key, { issuer: trusted.issuer, audience: issuer });
          if (payload.client_id !== trusted.clientId) throw new Error("issued to another client");
          if (payload.resource !== form.get("resource")) return json(res, 400, { error: "invalid_target" });
          return json(res, 200, await issue(trusted.clientId, String(payload.resource), "tools:read", payload.sub));
        } catch {
          return json(res, 400, { error: "invalid_grant" });
        }
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.issuer = issuer;
  state.jwksUrl = `${issuer}/jwks`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
