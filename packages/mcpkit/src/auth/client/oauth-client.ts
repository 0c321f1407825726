import * as oauth from "oauth4webapi";
import { isLoopbackUrl } from "../../transports/http/localhost.js";
import { type BearerChallenge, parseAuthChallenge, parseChallenges } from "../challenge.js";
import {
  canonicalResource,
  discoverAuthorizationServer,
  discoverResource,
  fallbackAuthorizationServer,
  type ResourceMetadata,
} from "./discovery.js";
import { type DPoPKey, DPoPSigner } from "./dpop.js";
import { OAuthError } from "./errors.js";
import {
  clientCredentials,
  enterpriseGrant,
  exchangeCode,
  type GrantContext,
  refresh,
  workloadGrant,
} from "./grants.js";
import { clientFor, forgetClient, type RegistrationOptions } from "./registration.js";
import { chooseScope } from "./scope.js";
import { memoryStorage, type OAuthStorage } from "./storage.js";
import type {
  ClientRegistration,
  EnterpriseCredentials,
  MachineCredentials,
  RedirectHandler,
  StoredTokens,
  WorkloadIdentity,
} from "./types.js";

export interface OAuthClientOptions {
  /** The MCP server (endpoint URL) the tokens are for. */
  serverUrl: string | URL;
  /** Where the authorization server sends the user back (needed for the authorization code flow). */
  redirectUri?: string;
  /** Takes the user to the authorization URL and resolves with the callback. */
  redirect?: RedirectHandler;
  /** Pre-registered credentials, by issuer, or a function of the issuer. */
  credentials?: RegistrationOptions["credentials"];
  /** This client's Client ID Metadata Document URL (an https URL used as client_id). */
  clientMetadataUrl?: string;
  /** client_name for dynamic registration (default "mcpkit"). */
  clientName?: string;
  clientUri?: string;
  /** Use the client_credentials grant instead of a user's authorization (no redirect). */
  machine?: MachineCredentials;
  /** Enterprise-managed authorization through the organization's IdP (no redirect either). */
  enterprise?: EnterpriseCredentials;
  /** Workload identity federation: a platform-issued JWT and the JWT bearer grant (no redirect). */
  workload?: WorkloadIdentity;
  /**
   * DPoP (RFC 9449): by default, when the authorization server lists
   * dpop_signing_alg_values_supported, tokens are bound to a key made for this client and
   * every request carries a fresh proof. `false` never uses DPoP; a `{ keyPair, alg }`
   * uses that key (one that outlives the process, for tokens kept in storage): a stored
   * token bound to it is sent from the first request; a server that does not list its
   * algorithm gets a fresh key instead. A function giving the key is called once, when it
   * is first needed (a key kept in a file is then read or made only then).
   */
  dpop?: false | DPoPKey | (() => Promise<DPoPKey>);
  /** Scopes to ask for instead of the spec's selection (challenge, then scopes_supported). */
  scope?: string;
  /** Ask for offline_access (a refresh token) when the server supports it (default true). */
  offlineAccess?: boolean;
  /** Credentials and tokens (default: in memory). */
  storage?: OAuthStorage;
  fetch?: typeof fetch;
  /** How many times one request may trigger step-up authorization after 403 (default 2). */
  maxStepUps?: number;
  /** Refresh this long before expiry, ms (default 60 000). */
  refreshSkewMs?: number;
  /**
   * The authorization server refused the refresh token (invalid_grant or invalid_client:
   * expired, revoked, or a client it forgot); a new grant follows, which may send the user
   * to log in again. Any other refresh failure (network, server error) rejects the request
   * with an OAuthError "refresh_failed" carrying the cause instead.
   */
  onRefreshRefused?: (error: OAuthError) => void;
  /**
   * A sign-in that `redirect` started has ended: `{}` once its tokens are stored (the
   * requests that waited on it are then sent again with them), `{ error }` when it failed
   * (the redirect handler rejected, the authorization server sent an error back, the code
   * exchange failed), the error those requests fail with. For an interface that shows a
   * sign-in under way and must know when it is over.
   */
  onSignInEnd?: (outcome: { error?: unknown }) => void;
}

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
    if (!grant) return this.authorizationCode(ctx, authority, scope);
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

  /** The authorization code flow: the user signs in (`redirect`), the code is exchanged, the tokens stored. */
  private async authorizationCode(ctx: GrantContext, authority: Authority, scope: string | undefined): Promise<void> {
    const { as } = authority;
    const redirectUri = this.options.redirectUri;
    if (!redirectUri || !this.options.redirect) {
      throw new OAuthError(
        "no_redirect",
        "The server needs authorization: configure redirectUri and a redirect handler (or machine credentials)",
      );
    }
    // authorization §Authorization Code Protection: PKCE S256, checked against the metadata.
    if (!as.code_challenge_methods_supported?.includes("S256")) {
      throw new OAuthError(
        "pkce_unsupported",
        `The authorization server ${as.issuer} does not support PKCE with S256; refusing to authorize`,
      );
    }
    if (!as.authorization_endpoint) throw new OAuthError("no_metadata", `${as.issuer} has no authorization endpoint`);
    const client = await clientFor(as, {
      storage: this.storage,
      fetch: this.fetchImpl,
      redirectUri,
      credentials: this.options.credentials,
      clientMetadataUrl: this.options.clientMetadataUrl,
      clientName: this.options.clientName ?? "mcpkit",
      clientUri: this.options.clientUri,
      scope,
    });
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", redirectUri);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    url.searchParams.set("resource", authority.resource);
    if (scope) url.searchParams.set("scope", scope);
    const redirect = this.options.redirect;
    const signIn = async () => {
      const returned = await redirect(url);
      const params =
        returned instanceof URLSearchParams
          ? returned
          : new URL(typeof returned === "string" ? returned : returned.href, redirectUri).searchParams;
      let callback: URLSearchParams;
      try {
        // Checks state, the error parameter and `iss` against the issuer (RFC 9207).
        callback = oauth.validateAuthResponse(as, { client_id: client.client_id }, params, state);
      } catch (error) {
        // RFC 6749 §4.1.2.1: the authorization server sent an error back (access_denied…), said as it came.
        const message =
          error instanceof oauth.AuthorizationResponseError
            ? `The authorization server answered ${error.error}${error.error_description ? `: ${error.error_description}` : ""}`
            : `The authorization response was refused: ${(error as Error).message}`;
        throw new OAuthError("authorization_failed", message, { cause: error });
      }
      try {
        await this.storage.set(this.tokenKey, await exchangeCode(ctx, client, callback, redirectUri, verifier));
      } catch (error) {
        // A registration the server no longer knows is dropped, so the next attempt registers again.
        if (/invalid_client/.test(String((error as Error).message))) await forgetClient(this.storage, as.issuer);
        throw error;
      }
    };
    try {
      await signIn();
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
