import { type AuthorizationServer, processDiscoveryResponse } from "oauth4webapi";
import { OAuthError } from "./errors.js";

/** RFC 9728 §2: what a protected resource says about itself. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  [key: string]: unknown;
}

type Fetch = typeof fetch;

/** RFC 8707 §2: the canonical URI of an MCP server (no fragment, no query, no trailing slash). */
export function canonicalResource(url: URL): string {
  return `${url.protocol.toLowerCase()}//${url.host.toLowerCase()}${pathOf(url)}`;
}

/** A URL's path without trailing slashes; "" for the root. */
const pathOf = (url: URL) => url.pathname.replace(/\/+$/, "");

/** A metadata document's response; undefined when there is none (any non-2xx). */
async function fetchDocument(url: string, fetch: Fetch): Promise<Response | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/json" } });
  } catch (error) {
    throw new OAuthError("discovery_failed", `Could not fetch ${url}: ${(error as Error).message}`, { cause: error });
  }
  if (response.ok) return response;
  // Only discarding the body: a failed cancel leaves nothing to clean up.
  await response.body?.cancel().catch(() => {});
  return undefined;
}

async function getJson(url: string, fetch: Fetch): Promise<Record<string, unknown> | undefined> {
  const response = await fetchDocument(url, fetch);
  if (!response) return undefined;
  try {
    const body = (await response.json()) as unknown;
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : undefined;
  } catch {
    // Not a JSON document: as if absent, so discovery tries the next well-known location.
    return undefined;
  }
}

/**
 * authorization §Protected Resource Metadata Discovery: the `resource_metadata` hint of
 * the 401's challenge, else the well-known URI with the endpoint's path, else at the root.
 * Undefined when none exists (2025-03-26 servers). The document's `resource` must name
 * this server (RFC 9728 §3.3), or it is refused.
 */
export async function discoverResource(
  serverUrl: URL,
  hint: string | undefined,
  fetch: Fetch,
): Promise<ResourceMetadata | undefined> {
  const candidates: string[] = [];
  if (hint) candidates.push(hint);
  const path = pathOf(serverUrl);
  if (path) candidates.push(`${serverUrl.origin}/.well-known/oauth-protected-resource${path}`);
  candidates.push(`${serverUrl.origin}/.well-known/oauth-protected-resource`);
  for (const url of candidates) {
    const document = await getJson(url, fetch);
    if (!document || typeof document.resource !== "string") continue;
    const metadata = document as ResourceMetadata;
    if (!resourceCovers(metadata.resource, serverUrl)) {
      throw new OAuthError(
        "resource_mismatch",
        `The protected resource metadata at ${url} is for ${metadata.resource}, not for ${canonicalResource(serverUrl)}`,
      );
    }
    return metadata;
  }
  return undefined;
}

/** The resource identifier must be this server's origin and a prefix of its path. */
function resourceCovers(resource: string, serverUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== serverUrl.origin) return false;
  const prefix = pathOf(url);
  const path = pathOf(serverUrl);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * authorization §Authorization Server Metadata Discovery: RFC 8414 and OpenID Connect
 * discovery, with the path variants in the spec's order. The document's issuer must be
 * the one asked for (RFC 8414 §3.3). Undefined when no document exists.
 */
export async function discoverAuthorizationServer(issuer: URL, fetch: Fetch): Promise<AuthorizationServer | undefined> {
  const path = pathOf(issuer);
  const candidates = path
    ? [
        `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
        `${issuer.origin}/.well-known/openid-configuration${path}`,
        `${issuer.origin}${path}/.well-known/openid-configuration`,
      ]
    : [`${issuer.origin}/.well-known/oauth-authorization-server`, `${issuer.origin}/.well-known/openid-configuration`];
  for (const url of candidates) {
    const response = await fetchDocument(url, fetch);
    if (!response) continue;
    try {
      return await processDiscoveryResponse(issuer, response);
    } catch (error) {
      throw new OAuthError(
        "invalid_metadata",
        `The authorization server metadata at ${url} is not valid for ${issuer.href}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return undefined;
}

/** authorization (2025-03-26) §Fallbacks: no metadata, the default endpoints at the server's origin. */
export function fallbackAuthorizationServer(base: URL): AuthorizationServer {
  return {
    issuer: base.origin,
    authorization_endpoint: `${base.origin}/authorize`,
    token_endpoint: `${base.origin}/token`,
    registration_endpoint: `${base.origin}/register`,
    code_challenge_methods_supported: ["S256"],
  };
}
