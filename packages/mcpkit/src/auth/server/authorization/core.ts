import type { ClientMetadataOptions } from "./client-metadata.js";
import type { ClientRecord } from "./clients.js";
import type { SigningKeys } from "./keys.js";
import type { Limits } from "./limits.js";
import type { Sealer } from "./seal.js";
import type { AuthorizationStore } from "./store.js";
import type { TokenDPoP } from "./token-dpop.js";
import type { UpstreamIdentity, UpstreamProvider, UpstreamTokens } from "./upstream/types.js";

/** What every endpoint of one authorization server shares. */
export interface Core {
  issuer: string;
  endpoints: {
    authorization: string;
    token: string;
    registration: string | undefined;
    revocation: string;
    jwks: string;
    callback: string;
    consent: string;
  };
  store: AuthorizationStore;
  sealer: Sealer;
  keys: SigningKeys;
  upstream: UpstreamProvider;
  /** The resources tokens may be for (RFC 8707), as configured now. */
  resources: () => readonly string[];
  /** Scopes clients may ask for, offline_access included. */
  scopes: string[];
  ttl: {
    accessSec: number;
    refreshMs: number;
    codeMs: number;
    signInMs: number;
    /** A registered client once a token was issued to it. */
    clientMs: number;
    /** A registration no token was issued to yet. */
    unusedClientMs: number;
  };
  /** Loopback issuer with the development provider: http client metadata documents on loopback are accepted. */
  development: boolean;
  clientMetadata: ClientMetadataOptions | undefined;
  /** Rates per caller and caps on what is kept (limits.ts). */
  limits: Limits;
  registration: boolean;
  /** Private-use schemes accepted beside reverse-domain ones (redirect-uris.ts). */
  appSchemes: ReadonlySet<string>;
  staticClients: Map<string, ClientRecord>;
  dpop: TokenDPoP | undefined;
  cookie: { name: string; attributes: string };
  serverName: string;
  now: () => number;
  onError: (error: unknown) => void;
}

/** The person behind a grant at the upstream provider, and their tokens there. */
export interface UpstreamPart {
  provider: string;
  subject: string;
  /** What the provider said of them: their email address and groups. */
  email?: string;
  groups?: string[];
  tokens?: UpstreamTokens;
}

/**
 * A sign-in under way, from /authorize to the person's decision, sealed in the store as a
 * "request": under its id until the person is back from the upstream provider, then under
 * consentKey(id) until they decide.
 */
export interface SignIn {
  clientId: string;
  redirectUri: string;
  state?: string;
  challenge: string;
  resource: string;
  scopes: string[];
  /** RFC 9449 §10: the key the code must be redeemed with. */
  dpopJkt?: string;
  /** The hash of the browser's cookie for this sign-in (browser.ts): it continues in that browser only. */
  browser: string;
  expiresAt: number;
  /** What the upstream provider needs back (PKCE verifier, nonce). */
  kept?: Record<string, string>;
  /** Once signed in upstream. */
  identity?: UpstreamIdentity;
  tokens?: UpstreamTokens;
}

/** An authorization code (sealed in the store under its hash). */
export interface CodeRecord {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string;
  scopes: string[];
  subject: string;
  dpopJkt?: string;
  grantId: string;
  upstream: UpstreamPart;
  expiresAt: number;
}

/** What a grant holds beyond its id, client and subject (sealed). */
export interface GrantDetails {
  resource: string;
  scopes: string[];
  /** The DPoP key its tokens are bound to. */
  jkt?: string;
  upstream: UpstreamPart;
}

export const PURPOSE = { signIn: "sign-in", code: "code", grant: "grant", client: "client" } as const;

/** The subject tokens name: the upstream provider and the person's id there. */
export const subjectOf = (upstream: UpstreamProvider, identity: UpstreamIdentity) =>
  `${upstream.id}:${identity.subject}`;
