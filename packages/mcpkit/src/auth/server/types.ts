/**
 * Who is calling, as a verified access token says (the `ctx.auth` of handlers). The
 * principal that sessions, tasks and request state are bound to is the pair issuer +
 * subject; a token without `sub` is its client's (issuer + client id), never a user's.
 */
export interface AuthInfo {
  /** The raw access token. */
  token: string;
  /** The authorization server that issued it (the token's `iss`). */
  issuer?: string;
  /** The person or workload it speaks for (the token's `sub`), unique within its issuer. */
  subject?: string;
  /** The OAuth client the token was issued to. */
  clientId?: string;
  /** Granted scopes. */
  scopes: string[];
  /** Expiry, ms since the epoch. */
  expiresAt?: number;
  /** Every claim or introspection field, for what the server needs beyond these. */
  claims: Record<string, unknown>;
  /**
   * With mcpkit's authorization server in front (createAuthorizationServer): the person's
   * token at the identity provider they signed in with, which never leaves the server. A
   * tool calls that provider's API for the person with `await ctx.auth.upstream.token()`.
   */
  upstream?: UpstreamAccess;
}

/** The caller's sign-in at the upstream identity provider, as a tool handler reaches it. */
export interface UpstreamAccess {
  /** Which provider: a preset's name ("github", "google", "entra", "okta", "auth0", "keycloak") or the configured id. */
  readonly provider: string;
  /** The person's subject at that provider. */
  readonly subject: string;
  /** Their email address, as the provider gave it at sign-in. */
  readonly email?: string;
  /** Their groups, as the provider gave them at sign-in (an OpenID Connect `groups` claim). */
  readonly groups?: readonly string[];
  /** A current access token at the provider, refreshed when it expired and a refresh token is kept. */
  token(): Promise<string>;
}

/** Checks an access token; throws InvalidTokenError when it is not good for this server. */
export type TokenVerifier = (token: string) => Promise<AuthInfo>;

/** The token is missing, malformed, expired, or not meant for this server (HTTP 401). */
export class InvalidTokenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidTokenError";
  }
}

export const scopesOf = (value: unknown): string[] => {
  if (typeof value === "string") return value.split(" ").filter(Boolean);
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === "string");
  return [];
};
