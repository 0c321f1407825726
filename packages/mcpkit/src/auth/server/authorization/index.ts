import { randomBytes } from "node:crypto";
import { isLoopbackUrl } from "../../../transports/http/localhost.js";
import type { TokenVerifier } from "../types.js";
import { accessTokenVerifier } from "./access-token.js";
import type { AuthorizationServerOptions } from "./authorization-options.js";
import { authorize } from "./authorize.js";
import { upstreamCallback } from "./callback.js";
import { staticClient } from "./clients.js";
import { decide } from "./consent.js";
import type { Core } from "./core.js";
import { json, preflight } from "./http.js";
import { signingKeys } from "./keys.js";
import { callerOf, type RateName, resolveLimits } from "./limits.js";
import { memoryAuthorizationStore } from "./memory-store.js";
import { metadataDocument } from "./metadata.js";
import { errorPage } from "./pages.js";
import { keepUnusedClient } from "./pools.js";
import { overRate, refusedJson, refusedPage } from "./rates.js";
import { appSchemes } from "./redirect-uris.js";
import { register } from "./register.js";
import { revoke } from "./revoke.js";
import { sealer } from "./seal.js";
import { token } from "./token.js";
import { tokenEndpointDPoP } from "./token-dpop.js";

export interface AuthorizationServer {
  readonly issuer: string;
  /** Where its metadata is (RFC 8414 §3): /.well-known/oauth-authorization-server + the issuer's path. */
  readonly metadataPath: string;
  /**
   * Answers a request to one of its endpoints (404 for any other path). `info.clientAddress`
   * is the client's IP address, which the limits per caller count by: mcpkit's Node adapter
   * and routeByPath pass it (behind the adapter's `trustProxy`, the address the proxies
   * forwarded). Without it, `limits.addressHeader` names the header the platform sets;
   * without either, only the totals apply.
   */
  fetch(request: Request, info?: { clientAddress?: string }): Promise<Response>;
  /** Whether a path is one of its endpoints: route those to `fetch` when mounting it beside an MCP endpoint. */
  handles(path: string): boolean;
  /** Checks the access tokens it issued for `resource`: the verifier of protectedResource(). */
  verifier(resource: string): TokenVerifier;
  /** Its RFC 8414 metadata document. */
  metadata(): Record<string, unknown>;
}

const DAY = 86_400;

/** Checks what cannot work before anything is served. */
function checked(options: AuthorizationServerOptions): URL {
  let issuer: URL;
  try {
    issuer = new URL(options.issuer);
  } catch {
    throw new TypeError(`The issuer must be a URL, not "${options.issuer}"`);
  }
  // RFC 8414 §2: https, no query or fragment; http only where nobody else can listen in.
  if (issuer.search || issuer.hash) throw new TypeError("The issuer must have no query or fragment");
  const loopback = isLoopbackUrl(issuer.href);
  if (issuer.protocol !== "https:" && !(issuer.protocol === "http:" && loopback))
    throw new TypeError(`The issuer must be an https URL (http only on loopback), not ${issuer.href}`);
  if (options.upstream.development && !loopback)
    throw new TypeError(
      "The development sign-in signs everyone in as a test user: it is served on a loopback issuer (127.0.0.1, localhost) only",
    );
  const resources = typeof options.resources === "function" ? options.resources() : options.resources;
  if (resources.length === 0) throw new TypeError("Name the resources tokens are for (`resources`)");
  const documents = options.clientMetadataDocuments;
  const maxCached = typeof documents === "object" ? documents.maxCached : undefined;
  if (maxCached !== undefined && maxCached !== false && !(Number.isInteger(maxCached) && maxCached >= 1))
    throw new TypeError("clientMetadataDocuments.maxCached must be a whole number from 1, or false");
  for (const r of resources) {
    try {
      if (new URL(r).hash) throw new Error();
    } catch {
      throw new TypeError(`A resource must be an absolute URI without fragment, not "${r}"`);
    }
  }
  return issuer;
}

/**
 * An OAuth 2.1 authorization server for MCP servers, in front of the identity provider
 * people already use (docs/authorization.md): RFC 8414 metadata; the authorization code
 * flow with PKCE (S256 only), RFC 8707 resources and RFC 9207 `iss`; short-lived JWT
 * access tokens bound to one resource, signed by rotating keys published as a JWKS;
 * refresh tokens rotated on use, a replay revoking the family; RFC 7009 revocation;
 * clients by Client ID Metadata Document (fetched with SSRF protection) or Dynamic Client
 * Registration; a consent page; DPoP-bound tokens for clients that send proofs. People
 * sign in upstream; their upstream tokens stay here and reach tools as `ctx.auth.upstream`.
 * A Web-standard handler: `fetch(request)`.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const issuerUrl = checked(options);
  const issuer = issuerUrl.href.replace(/\/$/, "");
  const base = issuerUrl.pathname.replace(/\/$/, "");
  const now = options.now ?? Date.now;
  const store = options.store ?? memoryAuthorizationStore({ now });
  const seal = sealer(options.secret ?? randomBytes(32));
  const accessSec = options.accessTokenTtlSec ?? 300;
  const signInSec = options.signInTtlSec ?? 600;
  const registration = options.registration ?? true;
  const metadataDocs = options.clientMetadataDocuments ?? true;
  const dpop = options.dpop ?? true;
  const development = options.upstream.development === true;
  const url = (path: string) => `${issuer}${path}`;
  const paths = {
    authorization: "/authorize",
    token: "/token",
    registration: "/register",
    revocation: "/revoke",
    jwks: "/jwks",
    callback: "/callback",
    consent: "/consent",
  };
  const resources = options.resources;
  const core: Core = {
    issuer,
    endpoints: {
      authorization: url(paths.authorization),
      token: url(paths.token),
      registration: registration ? url(paths.registration) : undefined,
      revocation: url(paths.revocation),
      jwks: url(paths.jwks),
      callback: url(paths.callback),
      consent: url(paths.consent),
    },
    store,
    sealer: seal,
    keys: signingKeys(store, seal, {
      rotateAfterMs: (options.keyRotationSec ?? DAY) * 1000,
      // Old keys stay published while tokens they signed may live, with an hour to spare.
      retireAfterMs: (accessSec + 3600) * 1000,
      now,
    }),
    upstream: options.upstream,
    resources: typeof resources === "function" ? resources : () => resources,
    scopes: [...new Set([...(options.scopes ?? []), "offline_access"])],
    ttl: {
      accessSec,
      refreshMs: (options.refreshTokenTtlSec ?? 30 * DAY) * 1000,
      codeMs: (options.codeTtlSec ?? 60) * 1000,
      signInMs: signInSec * 1000,
      clientMs: ((typeof registration === "object" ? registration.clientTtlSec : undefined) ?? 90 * DAY) * 1000,
      unusedClientMs: ((typeof registration === "object" ? registration.unusedClientTtlSec : undefined) ?? 600) * 1000,
    },
    development,
    clientMetadata: metadataDocs === false ? undefined : metadataDocs === true ? {} : metadataDocs,
    limits: resolveLimits(options.limits),
    registration: registration !== false,
    appSchemes: appSchemes(options.appSchemes),
    staticClients: new Map((options.clients ?? []).map((c) => [c.client_id, staticClient(c)])),
    dpop: dpop === false ? undefined : tokenEndpointDPoP(dpop === true ? {} : dpop, url(paths.token)),
    cookie: {
      name: "mcpkit-sign-in",
      attributes: `Path=${base || "/"}; HttpOnly; SameSite=Lax; Max-Age=${Math.ceil(signInSec)}${issuerUrl.protocol === "https:" ? "; Secure" : ""}`,
    },
    serverName: options.name ?? "mcpkit",
    now,
    onError: options.onError ?? ((error) => process.stderr.write(`mcpkit: authorization server: ${String(error)}\n`)),
  };
  const callerFrom = callerOf(core.limits, core.onError);
  const metadataPath = `/.well-known/oauth-authorization-server${base}`;

  type Route = {
    method: "GET" | "POST";
    /** Called by clients (JSON answers, CORS), not visited by a person (pages). */
    open: boolean;
    /** The rate per caller it counts against (limits.ts). */
    rate?: RateName;
    serve: (request: Request, caller: string | undefined) => Promise<Response> | Response;
  };
  const routes = new Map<string, Route>([
    [
      metadataPath,
      { method: "GET", open: true, serve: () => json(200, metadataDocument(core), { "cache-control": "max-age=300" }) },
    ],
    [
      base + paths.jwks,
      {
        method: "GET",
        open: true,
        serve: async () => json(200, await core.keys.jwks(), { "cache-control": "max-age=300" }),
      },
    ],
    [
      base + paths.authorization,
      { method: "GET", open: false, rate: "signIn", serve: (r, caller) => authorize(core, r, caller) },
    ],
    [base + paths.callback, { method: "GET", open: false, rate: "signIn", serve: (r) => upstreamCallback(core, r) }],
    [base + paths.consent, { method: "POST", open: false, rate: "signIn", serve: (r) => decide(core, r) }],
    [base + paths.token, { method: "POST", open: true, rate: "token", serve: (r) => token(core, r) }],
    [base + paths.revocation, { method: "POST", open: true, rate: "revoke", serve: (r) => revoke(core, r) }],
  ]);
  if (registration !== false)
    routes.set(base + paths.registration, {
      method: "POST",
      open: true,
      rate: "register",
      serve: (r, caller) => register(r, (client) => keepUnusedClient(core, client, caller), now, core.appSchemes),
    });

  return {
    issuer,
    metadataPath,
    handles: (path) => routes.has(path),
    verifier: (resource) => accessTokenVerifier(core, resource),
    metadata: () => metadataDocument(core),
    async fetch(request, info) {
      const route = routes.get(new URL(request.url).pathname);
      if (!route) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
      if (request.method === "OPTIONS" && route.open) return preflight();
      if (request.method !== route.method)
        return new Response(null, {
          status: 405,
          headers: { allow: route.open ? `${route.method}, OPTIONS` : route.method },
        });
      const caller = callerFrom(request, info);
      try {
        // Counted before any work (a client metadata document fetched, a record kept).
        const refused = route.rate && (await overRate(core.store, core.limits, route.rate, caller));
        if (refused) return route.open ? refusedJson(refused) : refusedPage(refused);
        return await route.serve(request, caller);
      } catch (error) {
        // The store or a signing key failed: not the client's doing, and no detail for it.
        core.onError(error);
        return route.open
          ? json(500, { error: "server_error", error_description: "The authorization server failed; try again" })
          : errorPage("Something went wrong", "The authorization server failed; try again later.", 500);
      }
    },
  };
}

export type { TrustProxy } from "../../../transports/http/trust-proxy.js";
export type { AuthorizationServerOptions } from "./authorization-options.js";
export type { ClientMetadataOptions } from "./client-metadata.js";
export type { ClientAuthMethod, StaticClient } from "./clients.js";
export { type AuthorizationLimits, DEFAULT_LIMITS, type RateLimit } from "./limits.js";
export { type HeldByStore, type MemoryAuthorizationStore, memoryAuthorizationStore } from "./memory-store.js";
export { DEFAULT_APP_SCHEMES } from "./redirect-uris.js";
export type {
  Admission,
  AuthorizationStore,
  Enlistment,
  GrantRecord,
  GroupLimit,
  PoolLimit,
  RecordKind,
  Rotation,
  SigningKeyRecord,
} from "./store.js";
export type { TokenDPoPOptions } from "./token-dpop.js";
export { DEVELOPMENT_USER, developmentUpstream } from "./upstream/development.js";
export { type OAuth2UpstreamOptions, oauth2Upstream } from "./upstream/oauth2.js";
export { type OidcUpstreamOptions, oidcUpstream } from "./upstream/oidc.js";
export {
  UPSTREAM_PRESETS,
  type UpstreamPreset,
  type UpstreamPresetName,
  type UpstreamPresetOptions,
  upstreamPreset,
} from "./upstream/presets.js";
export {
  UpstreamError,
  type UpstreamIdentity,
  type UpstreamProvider,
  type UpstreamStart,
  type UpstreamTokens,
} from "./upstream/types.js";
