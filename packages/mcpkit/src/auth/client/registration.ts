import type { AuthorizationServer } from "oauth4webapi";
import { isLoopbackUrl } from "../../transports/http/localhost.js";
import { OAuthError } from "./errors.js";
import type { OAuthStorage } from "./storage.js";
import type { ClientRegistration } from "./types.js";

export interface RegistrationOptions {
  storage: OAuthStorage;
  fetch: typeof fetch;
  redirectUri: string | undefined;
  /** Pre-registered credentials, by issuer (or one set for every issuer). */
  credentials?: Record<string, ClientRegistration> | ((issuer: string) => ClientRegistration | undefined);
  /** The URL of this client's metadata document, used as its client_id (Client ID Metadata Documents). */
  clientMetadataUrl?: string;
  clientName: string;
  clientUri?: string;
  scope?: string;
}

const storageKey = (issuer: string) => `client ${issuer}`;

/**
 * authorization §Client Registration Approaches, in the spec's order: credentials stored for
 * this issuer, pre-registered ones, a Client ID Metadata Document, then Dynamic Client
 * Registration. Credentials are kept per issuer and never offered to another.
 */
export async function clientFor(as: AuthorizationServer, options: RegistrationOptions): Promise<ClientRegistration> {
  const issuer = as.issuer;
  const stored = (await options.storage.get(storageKey(issuer))) as ClientRegistration | undefined;
  // A registration is for its redirect URI: a command-line client on a new loopback port
  // registers again (a refresh, which needs no redirect, keeps the old one).
  if (
    stored?.client_id &&
    (!options.redirectUri || !stored.redirect_uri || stored.redirect_uri === options.redirectUri)
  )
    return stored;
  const pre = typeof options.credentials === "function" ? options.credentials(issuer) : options.credentials?.[issuer];
  if (pre) return pre;
  if (options.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
    return { client_id: options.clientMetadataUrl, token_endpoint_auth_method: "none" };
  }
  if (typeof as.registration_endpoint === "string") {
    const registered = await register(as, as.registration_endpoint, options);
    await options.storage.set(storageKey(issuer), registered);
    return registered;
  }
  throw new OAuthError(
    "no_client_registration",
    `No way to register with ${issuer}: no pre-registered credentials for it, no Client ID Metadata Document support, and no registration endpoint`,
  );
}

export async function forgetClient(storage: OAuthStorage, issuer: string): Promise<void> {
  await storage.delete(storageKey(issuer));
}

/** RFC 7591 Dynamic Client Registration (deprecated in 2026-07-28, still supported). */
async function register(
  as: AuthorizationServer,
  endpoint: string,
  options: RegistrationOptions,
): Promise<ClientRegistration> {
  if (!options.redirectUri) throw new OAuthError("no_redirect_uri", "Dynamic client registration needs a redirect URI");
  const methods = as.token_endpoint_auth_methods_supported;
  const method =
    !methods || methods.includes("none")
      ? "none"
      : methods.includes("client_secret_basic")
        ? "client_secret_basic"
        : (methods[0] as string);
  const body: Record<string, unknown> = {
    client_name: options.clientName,
    redirect_uris: [options.redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: method,
    // SEP-837: a loopback redirect is a native application's.
    application_type: isLoopbackUrl(options.redirectUri) ? "native" : "web",
  };
  if (options.clientUri) body.client_uri = options.clientUri;
  if (options.scope) body.scope = options.scope;
  const response = await options.fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new OAuthError(
      "registration_failed",
      `Dynamic client registration at ${endpoint} failed with HTTP ${response.status}: ${text.slice(0, 300)}`,
    );
  }
  let registered: ClientRegistration;
  try {
    registered = JSON.parse(text) as ClientRegistration;
  } catch {
    throw new OAuthError(
      "registration_failed",
      `Dynamic client registration at ${endpoint} answered something that is not JSON`,
    );
  }
  if (typeof registered.client_id !== "string")
    throw new OAuthError("registration_failed", "The registration answer has no client_id");
  return {
    client_id: registered.client_id,
    ...(registered.client_secret && { client_secret: registered.client_secret }),
    token_endpoint_auth_method:
      registered.token_endpoint_auth_method ?? (registered.client_secret ? "client_secret_basic" : "none"),
    redirect_uri: options.redirectUri,
  };
}
