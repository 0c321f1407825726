/** Who signed in at the upstream identity provider. */
export interface UpstreamIdentity {
  /** Their stable id at the provider (OpenID Connect `sub`, GitHub's numeric user id). */
  subject: string;
  /** A name to show on the consent page. */
  name?: string;
  email?: string;
  /** The groups the provider says they belong to (an OpenID Connect `groups` claim), for policies over them. */
  groups?: string[];
}

/** The person's tokens at the provider: kept sealed on the server, never given to MCP clients. */
export interface UpstreamTokens {
  accessToken: string;
  refreshToken?: string;
  /** ms since the epoch. */
  expiresAt?: number;
  scope?: string;
}

/** A sign-in started: where to send the browser, and what finishing it needs back. */
export interface UpstreamStart {
  /** The provider's authorization URL; absent when the person is signed in at once (the development provider). */
  url?: URL;
  /** Kept (sealed) until the browser comes back: PKCE verifier, nonce. */
  kept: Record<string, string>;
  /** With no `url`: who is signed in. */
  identity?: UpstreamIdentity;
}

/**
 * An identity provider people sign in with (GitHub, Google, Entra ID, Okta, Auth0,
 * Keycloak, any OpenID Connect provider): the authorization server sends the browser to
 * it and gets back who signed in, and their tokens there.
 */
export interface UpstreamProvider {
  /** A short name: the prefix of subjects (`github:583231`) and `ctx.auth.upstream.provider`. */
  readonly id: string;
  /** The provider's name, as the consent page shows it. */
  readonly title: string;
  /** A development stand-in that signs in a fixed user: served on loopback only. */
  readonly development?: boolean;
  /** Starts a sign-in; the provider redirects to `redirectUri` with `state`. */
  begin(options: { redirectUri: string; state: string }): Promise<UpstreamStart>;
  /** Finishes it from the callback's query parameters. */
  finish(
    callback: URLSearchParams,
    kept: Record<string, string>,
    options: { redirectUri: string; state: string },
  ): Promise<{ identity: UpstreamIdentity; tokens?: UpstreamTokens }>;
  /** New tokens from the refresh token. */
  refresh?(tokens: UpstreamTokens): Promise<UpstreamTokens>;
}

/** The provider refused, or answered something unusable: shown to the person, sent to onError. */
export class UpstreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UpstreamError";
  }
}
