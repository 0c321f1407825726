import type { ClientMetadataOptions } from "./client-metadata.js";
import type { StaticClient } from "./clients.js";
import type { AuthorizationLimits } from "./limits.js";
import type { AuthorizationStore } from "./store.js";
import type { TokenDPoPOptions } from "./token-dpop.js";
import type { UpstreamProvider } from "./upstream/types.js";

export interface AuthorizationServerOptions {
  /**
   * The issuer (RFC 8414): this server's own URL, https (http on loopback only). Its
   * endpoints are under it: /authorize, /token, /register, /revoke, /jwks, /callback,
   * /consent; its metadata at /.well-known/oauth-authorization-server (path-suffixed).
   */
  issuer: string;
  /**
   * The resources it issues tokens for (RFC 8707): the canonical URIs of the MCP endpoints
   * behind it. A function is asked at each authorization request, for a server whose
   * endpoints change while it runs (a gateway's virtual servers added by a reload).
   */
  resources: string[] | (() => readonly string[]);
  /** Where people sign in: upstreamPreset(), oidcUpstream(), oauth2Upstream(), or developmentUpstream() on loopback. */
  upstream: UpstreamProvider;
  /**
   * The secret that seals what the store keeps (upstream tokens, signing keys, sign-ins
   * under way), 32 bytes or more, the same on every node. Default: a random one per
   * process, for one node whose tokens need not outlive it.
   */
  secret?: string | Uint8Array;
  /** Where its state lives (default: in this process). Give every node the same shared one (`@mcpkit/redis`). */
  store?: AuthorizationStore;
  /** Scopes clients may ask for (default none); `offline_access` is always understood. */
  scopes?: string[];
  /** Clients configured up front, beside registered and metadata-document ones. */
  clients?: StaticClient[];
  /** Access token lifetime, seconds (default 300). */
  accessTokenTtlSec?: number;
  /** How long a grant, and so its refresh tokens, lasts, seconds (default 30 days). */
  refreshTokenTtlSec?: number;
  /** Authorization code lifetime, seconds (default 60). */
  codeTtlSec?: number;
  /** How long a person may take from the application's request to their consent, seconds (default 600). */
  signInTtlSec?: number;
  /** A new signing key every this many seconds (default a day); old ones stay published until their tokens expired. */
  keyRotationSec?: number;
  /** Client ID metadata documents (default on): clients named by an https URL, fetched with SSRF protection. `false` turns them off. */
  clientMetadataDocuments?: boolean | ClientMetadataOptions;
  /**
   * Dynamic Client Registration (RFC 7591, default on). A registration no token was issued
   * to yet lasts `unusedClientTtlSec` (default 600: 10 minutes), one that was used
   * `clientTtlSec` from its first token (default 90 days).
   */
  registration?: boolean | { clientTtlSec?: number; unusedClientTtlSec?: number };
  /**
   * Private-use schemes accepted in redirect URIs though not in reverse-domain form (RFC 8252
   * §7.1 asks for `com.example.app:`): those of MCP clients that register them (default
   * `DEFAULT_APP_SCHEMES`: `cursor`, `vscode`, `vscode-insiders`). `[]` accepts reverse-domain
   * schemes only. A scheme an operating system hands to a program of its own (`ms-msdt`,
   * `search-ms`, `file`, `javascript`…) is refused here whatever you list.
   */
  appSchemes?: string[];
  /** DPoP-bound tokens for clients that send a proof (RFC 9449, default on); `false` issues Bearer tokens only. */
  dpop?: boolean | TokenDPoPOptions;
  /**
   * Rates per caller (its IP address) for each endpoint, and caps on the clients and
   * sign-ins kept, at which the oldest of whoever holds the most gives way (default on:
   * limits.ts gives each default); `false` turns them all off.
   */
  limits?: AuthorizationLimits | false;
  /** The name on its pages (default "mcpkit"). */
  name?: string;
  /** Failures that are not the client's fault (the store, the upstream provider); default: stderr. */
  onError?: (error: unknown) => void;
  /** The clock (tests). */
  now?: () => number;
}
