import type { DPoPKey } from "./dpop.js";
import type { OAuthError } from "./errors.js";
import type { RegistrationOptions } from "./registration.js";
import type { OAuthStorage } from "./storage.js";
import type { EnterpriseCredentials, MachineCredentials, RedirectHandler, WorkloadIdentity } from "./types.js";

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
