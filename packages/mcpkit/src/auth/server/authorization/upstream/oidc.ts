import * as oauth from "oauth4webapi";
import { guardedFetch } from "../../../../address-guard/fetch.js";
import {
  authorizationUrl,
  exchangeCode,
  identityOfClaims,
  refreshTokens,
  requestOptions,
  type UpstreamClient,
} from "./token-endpoint.js";
import { UpstreamError, type UpstreamIdentity, type UpstreamProvider } from "./types.js";

export interface OidcUpstreamOptions {
  /** The provider's issuer, or its discovery document's URL (…/.well-known/openid-configuration). */
  issuer: string | URL;
  clientId: string;
  clientSecret?: string;
  /** Short name (default "oidc"): subjects are `<id>:<sub>`. */
  id?: string;
  /** Shown on the consent page (default: the issuer's host). */
  title?: string;
  /** Scopes to ask for (default openid profile email, and offline_access when the provider offers it). */
  scopes?: string[];
  /** More authorization request parameters (Google's access_type=offline, say). */
  authorizationParams?: Record<string, string>;
  /**
   * What reaches the provider. Default: the issuer's origin as you named it, and the
   * endpoints its discovery document names on other origins only where they are public
   * (global unicast, checked after the lookup); pass your own to reach such endpoints.
   */
  fetch?: typeof fetch;
}

const WELL_KNOWN = "/.well-known/openid-configuration";

/** The issuer a discovery URL is for (OpenID Connect Discovery §4), or the issuer itself. */
export function issuerOf(value: string | URL): URL {
  const url = new URL(value);
  if (url.pathname.endsWith(WELL_KNOWN)) {
    url.pathname = url.pathname.slice(0, -WELL_KNOWN.length) || "/";
  }
  url.search = "";
  url.hash = "";
  return url;
}

/**
 * Any OpenID Connect provider, found by discovery (OpenID Connect Discovery 1.0): the
 * authorization code flow with PKCE and a nonce, the ID token's claims validated
 * (issuer, audience, nonce, expiry), its `sub` the person's id; the provider's tokens
 * kept for tools and refreshed with its refresh token.
 */
export function oidcUpstream(options: OidcUpstreamOptions): UpstreamProvider {
  const issuer = issuerOf(options.issuer);
  // The issuer is yours to name, wherever it is; the endpoints its discovery document names
  // on other origins are the provider's say-so, reached only where they are public.
  const fetchImpl =
    options.fetch ??
    guardedFetch({ trusted: (url) => url.origin === issuer.origin, maxBytes: 1024 * 1024, timeoutMs: 15_000 });
  let discovered: { client: UpstreamClient; at: number } | undefined;

  const client = async (): Promise<UpstreamClient> => {
    if (discovered && Date.now() - discovered.at < 3_600_000) return discovered.client;
    const base: UpstreamClient = {
      as: { issuer: issuer.href },
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      fetch: fetchImpl,
    };
    let as: oauth.AuthorizationServer;
    try {
      const response = await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...requestOptions(base) });
      as = await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      throw new UpstreamError(`OpenID Connect discovery at ${issuer.href} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    discovered = { client: { ...base, as }, at: Date.now() };
    return discovered.client;
  };

  const scope = (as: oauth.AuthorizationServer) =>
    (
      options.scopes ?? [
        "openid",
        "profile",
        "email",
        ...(as.scopes_supported?.includes("offline_access") ? ["offline_access"] : []),
      ]
    ).join(" ");

  /** The name and email from the UserInfo endpoint (OpenID Connect Core §5.3), when there is one; nothing if it fails. */
  const profile = async (accessToken: string, subject: string): Promise<Partial<UpstreamIdentity>> => {
    const c = await client();
    if (!c.as.userinfo_endpoint) return {};
    try {
      const ours = { client_id: options.clientId };
      const response = await oauth.userInfoRequest(c.as, ours, accessToken, requestOptions(c));
      const info = await oauth.processUserInfoResponse(c.as, ours, subject, response);
      const { subject: _, ...rest } = identityOfClaims({ ...info, sub: subject } as oauth.IDToken);
      return rest;
    } catch {
      return {};
    }
  };

  return {
    id: options.id ?? "oidc",
    title: options.title ?? issuer.host,
    async begin({ redirectUri, state }) {
      const c = await client();
      const nonce = oauth.generateRandomNonce();
      const { url, verifier } = await authorizationUrl(c, {
        redirectUri,
        state,
        nonce,
        scope: scope(c.as),
        ...(options.authorizationParams && { params: options.authorizationParams }),
      });
      return { url, kept: { verifier, nonce } };
    },
    async finish(callback, kept, { redirectUri, state }) {
      const { tokens, claims } = await exchangeCode(await client(), callback, {
        state,
        redirectUri,
        verifier: kept.verifier ?? "",
        nonce: kept.nonce ?? "",
      });
      if (!claims) throw new UpstreamError(`${issuer.host} sent no ID token`);
      const identity = identityOfClaims(claims);
      // Many providers keep the profile out of the ID token when an access token comes with it.
      if (identity.name === undefined) Object.assign(identity, await profile(tokens.accessToken, claims.sub));
      return { identity, tokens };
    },
    async refresh(tokens) {
      return refreshTokens(await client(), tokens);
    },
  };
}
