/** Client credentials for one authorization server (never reused with another: 2026-07-28 SEP-2352). */
export interface ClientRegistration {
  client_id: string;
  client_secret?: string;
  /** client_secret_basic, client_secret_post or none. */
  token_endpoint_auth_method?: string;
  /** The redirect URI a dynamic registration was made for. */
  redirect_uri?: string;
}

export interface StoredTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  /** Expiry, ms since the epoch. */
  expires_at?: number;
  /** When they were issued, ms since the epoch. */
  obtained_at?: number;
  /** The authorization server that issued them. */
  issuer: string;
  /** For a DPoP-bound token (RFC 9449): the thumbprint of the key it is bound to. */
  dpop_jkt?: string;
}

/**
 * Shows the user the authorization URL (opens a browser, prints it…) and resolves with
 * the URL the authorization server redirected back to, or its query parameters.
 */
export type RedirectHandler = (authorizationUrl: URL) => Promise<URL | URLSearchParams | string>;

/** The client_credentials grant (the OAuth client credentials extension): no user involved. */
export type MachineCredentials =
  | { client_id: string; client_secret: string; method?: "client_secret_basic" | "client_secret_post" }
  | { client_id: string; private_key_pem: string; algorithm: string; key_id?: string };

/**
 * Enterprise-managed authorization (the io.modelcontextprotocol/enterprise-managed-authorization
 * extension): the user's SSO identity assertion is exchanged at the enterprise IdP for an
 * ID-JAG (RFC 8693), which the MCP authorization server trades for an access token
 * (RFC 7523 JWT bearer grant). Nobody is redirected to the MCP authorization server.
 */
export interface EnterpriseCredentials {
  /** The IdP's token endpoint, where the token exchange happens. */
  idpTokenEndpoint: string;
  /** The IdP's issuer (default: the token endpoint's origin). */
  idpIssuer?: string;
  /** This client's id at the IdP, and its secret if it has one (sent with client_secret_basic). */
  idpClientId: string;
  idpClientSecret?: string;
  /** The OpenID ID token from the user's SSO login, or a function returning a current one. */
  idToken: string | (() => Promise<string>);
  /** This client's credentials at the MCP authorization server. */
  client_id: string;
  client_secret?: string;
}

/**
 * Workload identity federation (the io.modelcontextprotocol/auth/wif extension): a
 * platform-issued JWT presented with the RFC 7523 JWT bearer grant. No user, no redirect,
 * no client secret and no registration.
 */
export interface WorkloadIdentity {
  /**
   * The JWT, or a function returning a current one (called for every token request, so a
   * rotated token is picked up), given the authorization server's issuer as the audience
   * the JWT must name and the MCP server's resource URI. See `fileAssertion`.
   */
  assertion: string | ((request: { audience: string; resource: string }) => string | Promise<string>);
  /** A client_id, if the authorization server expects one (sent without authentication). */
  client_id?: string;
}
