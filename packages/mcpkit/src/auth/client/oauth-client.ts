import * as oauth from "oauth4webapi";
import { isLoopbackUrl } from "../../transports/http/localhost.js";
import { type BearerChallenge, parseAuthChallenge, parseChallenges } from "../challenge.js";
import { prepareCodeSignIn } from "./authorization-code.js";
import {
  canonicalResource,
  discoverAuthorizationServer,
  discoverResource,
  fallbackAuthorizationServer,
  type ResourceMetadata,
} from "./discovery.js";
import { type DPoPKey, DPoPSigner } from "./dpop.js";
import { OAuthError } from "./errors.js";
import { clientCredentials, enterpriseGrant, type GrantContext, refresh, workloadGrant } from "./grants.js";
import type { OAuthClientOptions } from "./oauth-client-options.js";
import { clientFor } from "./registration.js";
import { chooseScope } from "./scope.js";
import { memoryStorage, type OAuthStorage } from "./storage.js";
import type { ClientRegistration, StoredTokens } from "./types.js";

export type { OAuthClientOptions } from "./oauth-client-options.js";

interface Authority {
  as: oauth.AuthorizationServer;
  resource: string;
  metadata: ResourceMetadata | undefined;
}

/**
 * The client side of authorization (basic/authorization): finds the authorization server
 * from the MCP server's challenge, registers, runs the authorization code flow with PKCE
 * (or client credentials), keeps the tokens fresh, and steps up scopes on 403. `fetch` is
 * a drop-in fetch that does all of it.
 */
export class OAuthClient {
  private readonly options: OAuthClientOptions;
  private readonly serverUrl: URL;
  private readonly storage: OAuthStorage;
  private readonly fetchImpl: typeof fetch;
  private authority: Authority | undefined;
  private pending: Promise<void> | undefined;
  private dpop: DPoPSigner | undefined;
  private keyPromise: Promise<DPoPKey | undefined> | undefined;

  constructor(options: OAuthClientOptions) {
    this.options = options;
    this.serverUrl = new URL(options.serverUrl);
    this.storage = options.storage ?? memoryStorage();
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  private get tokenKey(): string {
    return `tokens ${canonicalResource(this.serverUrl)}`;
  }

  /** The current tokens, if any. */
  async tokens(): Promise<StoredTokens | undefined> {
    return (await this.storage.get(this.tokenKey)) as StoredTokens | undefined;
  }

  /** A usable access token: refreshed first when it is about to expire. */
  async accessToken(): Promise<string | undefined> {
    return (await this.usableTokens())?.access_token;
  }

  /** The tokens to send, refreshed when about to expire; a token bound to a key this client lacks is unusable. */
  private async usableTokens(): Promise<StoredTokens | undefined> {
    const tokens = await this.currentTokens();
    // A key the client was given signs before any discovery: a token stored bound to it is usable as it is.
    if (tokens?.dpop_jkt && !this.dpop && this.options.dpop)
      this.dpop = await DPoPSigner.create([], await this.givenKey());
    if (tokens?.dpop_jkt && tokens.dpop_jkt !== this.dpop?.jkt) return undefined;
    return tokens;
  }

  /** The DPoP key of the options, if one was given (a function giving it is called once). */
  private givenKey(): Promise<DPoPKey | undefined> {
    const given = this.options.dpop;
    this.keyPromise ??= typeof given === "function" ? given() : Promise.resolve(given || undefined);
    return this.keyPromise;
  }

  private async currentTokens(): Promise<StoredTokens | undefined> {
    const tokens = await this.tokens();
    if (!tokens) return undefined;
    // Refresh ahead of expiry, but never earlier than half of the token's life.
    const life =
      tokens.expires_at !== undefined && tokens.obtained_at !== undefined
        ? tokens.expires_at - tokens.obtained_at
        : Number.POSITIVE_INFINITY;
    const skew = Math.min(this.options.refreshSkewMs ?? 60_000, life / 2);
    if (tokens.expires_at !== undefined && tokens.expires_at - skew < Date.now()) {
      if (tokens.refresh_token && (await this.tryRefresh(tokens))) return this.tokens();
      if (tokens.expires_at < Date.now()) return undefined;
    }
    return tokens;
  }

  /** Forgets the tokens (the credentials stay). */
  async logout(): Promise<void> {
    await this.storage.delete(this.tokenKey);
  }

  /** A fetch that adds the token, authorizes on 401, and steps up on 403 insufficient_scope. */
  readonly fetch: typeof fetch = async (input, init) => {
    let response = await this.send(input, init);
    if (response.status === 401) {
      const challenge = parseAuthChallenge(response.headers.get("www-authenticate"));
      // Only discarding the body: a failed cancel leaves nothing to clean up.
      await response.body?.cancel().catch(() => {});
      await this.authorizeOnce(challenge, true);
      response = await this.send(input, init);
    }
    let stepUps = 0;
    while (response.status === 403) {
      const challenge = parseAuthChallenge(response.headers.get("www-authenticate"));
      if (challenge?.error !== "insufficient_scope" || stepUps >= (this.options.maxStepUps ?? 2)) break;
      stepUps++;
      // Only discarding the body: a failed cancel leaves nothing to clean up.
      await response.body?.cancel().catch(() => {});
      await this.authorizeOnce(challenge, false);
      response = await this.send(input, init);
    }
    return response;
  };

  /**
   * One request with the token: as `Bearer`, or for a DPoP-bound token as `DPoP` with a
   * fresh proof (RFC 9449 §7.1). A 401 use_dpop_nonce that brings a new nonce is answered
   * once with a proof carrying it (§9).
   */
  private async send(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<Response> {
    const tokens = await this.usableTokens();
    const signer = tokens?.dpop_jkt ? this.dpop : undefined;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const attempt = async () => {
      const headers = new Headers(init?.headers);
      if (tokens && signer) {
        headers.set("authorization", `DPoP ${tokens.access_token}`);
        headers.set("dpop", await signer.proof(method, url, tokens.access_token));
      } else if (tokens) headers.set("authorization", `Bearer ${tokens.access_token}`);
      return this.fetchImpl(input, { ...init, headers });
    };
    const response = await attempt();
    if (!signer?.noteNonce(url, response) || response.status !== 401) return response;
    const challenges = parseChallenges(response.headers.get("www-authenticate"));
    if (!challenges.some((c) => c.scheme === "dpop" && c.params.error === "use_dpop_nonce")) return response;
    // Only discarding the body: a failed cancel leaves nothing to clean up.
    await response.body?.cancel().catch(() => {});
    return attempt();
  }

  /** Concurrent 401s share one authorization. */
  private authorizeOnce(challenge: BearerChallenge | undefined, tryRefresh: boolean): Promise<void> {
    this.pending ??= this.authorize(challenge, tryRefresh).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Runs discovery, registration and a grant, and stores the tokens. */
  async authorize(challenge?: BearerChallenge, tryRefresh = false): Promise<void> {
    const authority = await this.discover(challenge);
    const current = await this.tokens();
    if (
      tryRefresh &&
      current?.refresh_token &&
      current.issuer === authority.as.issuer &&
      (await this.tryRefresh(current))
    )
      return;
    const ctx = this.grantContext(authority);
    const o = this.options;
    const scope = chooseScope({
      configured: o.scope,
      challenge,
      current,
      resourceScopes: authority.metadata?.scopes_supported,
      serverScopes: authority.as.scopes_supported,
      offlineAccess: o.offlineAccess !== false && !o.machine && !o.enterprise && !o.workload,
    });
    const { machine, enterprise, workload } = this.options;
    const grant = machine
      ? clientCredentials(ctx, machine, scope)
      : enterprise
        ? enterpriseGrant(ctx, enterprise, scope)
        : workload
          ? workloadGrant(ctx, workload, scope)
          : undefined;
    if (!grant) return this.authorizationCode(ctx, scope);
    await this.storage.set(this.tokenKey, await grant);
  }

  private grantContext(authority: Authority): GrantContext {
    const insecure = isLoopbackUrl(authority.as.issuer);
    return {
      as: authority.as,
      resource: authority.resource,
      fetch: this.fetchImpl,
      insecure,
      ...(this.dpop && { dpop: this.dpop }),
    };
  }

  /** authorization §Authorization Server Discovery, with the 2025-03-26 fallbacks. */
  private async discover(challenge: BearerChallenge | undefined): Promise<Authority> {
    if (this.authority && !challenge?.resourceMetadata) return this.authority;
    const metadata = await discoverResource(this.serverUrl, challenge?.resourceMetadata, this.fetchImpl);
    const resource = metadata?.resource
      ? canonicalResource(new URL(metadata.resource))
      : canonicalResource(this.serverUrl);
    const issuerUrl = metadata?.authorization_servers?.[0];
    const issuer = new URL(issuerUrl ?? this.serverUrl.origin);
    const found = await discoverAuthorizationServer(issuer, this.fetchImpl);
    const as = found ?? (issuerUrl && metadata ? undefined : fallbackAuthorizationServer(issuer));
    if (!as) throw new OAuthError("no_metadata", `No authorization server metadata at ${issuer.href}`);
    const previous = this.authority?.as.issuer;
    if (previous && previous !== as.issuer) {
      // SEP-2352: the authorization server changed; what it issued elsewhere is not reused.
      await this.logout();
    }
    this.authority = { as, resource, metadata };
    // RFC 9449 §5.1: the server lists the proof algorithms it takes; one key serves every request.
    const algs = as.dpop_signing_alg_values_supported;
    if (!this.dpop && this.options.dpop !== false && Array.isArray(algs) && algs.length > 0) {
      const given = await this.givenKey();
      // A given key the server cannot check (its algorithm is not listed) gives way to a fresh one.
      this.dpop = await DPoPSigner.create(algs, given && algs.includes(given.alg) ? given : undefined);
    }
    return this.authority;
  }

  /** The authorization code flow (authorization-code.ts); the tokens it gets are stored. */
  private async authorizationCode(ctx: GrantContext, scope: string | undefined): Promise<void> {
    const { redirectUri, redirect } = this.options;
    if (!redirectUri || !redirect) {
      throw new OAuthError(
        "no_redirect",
        "The server needs authorization: configure redirectUri and a redirect handler (or machine credentials)",
      );
    }
    const code = await prepareCodeSignIn(ctx, scope, {
      storage: this.storage,
      fetch: this.fetchImpl,
      redirectUri,
      credentials: this.options.credentials,
      clientMetadataUrl: this.options.clientMetadataUrl,
      clientName: this.options.clientName ?? "mcpkit",
      clientUri: this.options.clientUri,
    });
    try {
      await this.storage.set(this.tokenKey, await code.signIn(redirect));
    } catch (error) {
      this.options.onSignInEnd?.({ error });
      throw error;
    }
    this.options.onSignInEnd?.({});
  }

  private async tryRefresh(tokens: StoredTokens): Promise<boolean> {
    try {
      const authority = this.authority ?? (await this.discover(undefined));
      // A workload presents a fresh platform token instead of refreshing.
      if (authority.as.issuer !== tokens.issuer || this.options.workload) return false;
      const fixed = this.options.machine ?? this.options.enterprise;
      const client: ClientRegistration | undefined = fixed
        ? { client_id: fixed.client_id, client_secret: "client_secret" in fixed ? fixed.client_secret : undefined }
        : await clientFor(authority.as, {
            storage: this.storage,
            fetch: this.fetchImpl,
            // Whatever redirect URI it was registered with: refreshing redirects nobody.
            redirectUri: undefined,
            credentials: this.options.credentials,
            clientMetadataUrl: this.options.clientMetadataUrl,
            clientName: this.options.clientName ?? "mcpkit",
          });
      const refreshed = await refresh(this.grantContext(authority), client, tokens);
      await this.storage.set(this.tokenKey, refreshed);
      return true;
    } catch (error) {
      if (refusedGrant(error)) {
        // The refresh token is spent: forgotten, so it is not tried again; a new grant is the
        // way on, and the caller hears why.
        const { refresh_token: _spent, ...rest } = tokens;
        await this.storage.set(this.tokenKey, rest);
        this.options.onRefreshRefused?.(error);
        return false;
      }
      throw new OAuthError("refresh_failed", `Refreshing the access token failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/**
 * RFC 6749 §5.2: the server refused this refresh token or client for good (not a passing
 * failure). So is a refresh token bound to a DPoP key this client no longer holds (RFC 9449
 * §5): no proof it can make will ever do (a nonce it asks for is answered before this).
 */
const REFUSALS = new Set(["invalid_grant", "invalid_client", "invalid_dpop_proof"]);

function refusedGrant(error: unknown): error is OAuthError {
  const cause = error instanceof OAuthError ? error.cause : undefined;
  return cause instanceof oauth.ResponseBodyError && REFUSALS.has(cause.error);
}
