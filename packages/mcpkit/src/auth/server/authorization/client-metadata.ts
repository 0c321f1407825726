import type { ClientRecord } from "./clients.js";
import { type FetchLimits, FetchRefused, guardedFetchJson } from "./guarded-fetch.js";
import { redirectUriProblem } from "./redirect-uris.js";

/** How client ID metadata documents are fetched (createAuthorizationServer's `clientMetadataDocuments`). */
export interface ClientMetadataOptions {
  /** Accept documents on private and other special-purpose addresses (default false). */
  allowPrivateAddresses?: boolean;
  /** The largest document, bytes (default 5120). */
  maxBytes?: number;
  /** How long a fetch may take, ms (default 5000). */
  timeoutMs?: number;
  /** How long a fetched document is used, seconds, when it says nothing (default 3600); Cache-Control max-age is honoured between 60 s and a day. */
  cacheSec?: number;
  /** How many fetched documents are kept at once (default 1000): beyond, a document is fetched again for each use. `false`: no cap. */
  maxCached?: number | false;
}

/** A client id that is a metadata document's URL, refused: the message is for the developer of that client. */
export class ClientMetadataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClientMetadataError";
  }
}

/**
 * Whether a client id names a client ID metadata document: an https URL with a path
 * (basic/authorization §Client ID Metadata Documents; draft-ietf-oauth-client-id-metadata-document
 * §3), or, in development, an http one on loopback.
 */
export function isMetadataDocumentId(clientId: string, development: boolean): boolean {
  if (!/^https?:\/\//i.test(clientId)) return false;
  try {
    const url = new URL(clientId);
    if (url.protocol === "http:" && !development) return false;
    return url.pathname !== "/" && url.pathname !== "";
  } catch {
    return false;
  }
}

/**
 * Fetches and checks the document a client id names (draft §4): JSON whose client_id is
 * that very URL, redirect URIs that could be registered, a public client (no shared
 * secret: `none`). The fetch is guarded against server-side request forgery (guarded-fetch.ts).
 */
export async function fetchClientMetadata(
  clientId: string,
  options: ClientMetadataOptions,
  development: boolean,
  appSchemes: ReadonlySet<string>,
): Promise<{ client: ClientRecord; ttlMs: number }> {
  const url = new URL(clientId);
  if (url.hash || /\/\.\.?(\/|$)/.test(url.pathname))
    throw new ClientMetadataError(`The client id ${clientId} must not have a fragment or dot segments`);
  const limits: FetchLimits = {
    allowLoopback: development,
    allowPrivateAddresses: options.allowPrivateAddresses ?? false,
    maxBytes: options.maxBytes ?? 5120,
    timeoutMs: options.timeoutMs ?? 5000,
  };
  let fetched: Awaited<ReturnType<typeof guardedFetchJson>>;
  try {
    fetched = await guardedFetchJson(url, limits);
  } catch (error) {
    if (error instanceof FetchRefused)
      throw new ClientMetadataError(`The client metadata document was refused: ${error.message}`);
    throw error;
  }
  const doc = fetched.body as Record<string, unknown>;
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new ClientMetadataError(`The client metadata document at ${clientId} is not a JSON object`);
  if (doc.client_id !== clientId)
    throw new ClientMetadataError(`The client metadata document at ${clientId} names another client_id`);
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 20)
    throw new ClientMetadataError(`The client metadata document at ${clientId} needs 1 to 20 redirect_uris`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri, appSchemes);
    if (problem) throw new ClientMetadataError(`The client metadata document at ${clientId}: ${problem}`);
  }
  const method = doc.token_endpoint_auth_method ?? "none";
  if (method !== "none" || doc.client_secret !== undefined)
    throw new ClientMetadataError(
      `The client metadata document at ${clientId} must describe a public client (token_endpoint_auth_method "none"); ${String(method)} is not supported here`,
    );
  const grants = Array.isArray(doc.grant_types) ? doc.grant_types.filter((g) => typeof g === "string") : undefined;
  const defaultTtl = (options.cacheSec ?? 3600) * 1000;
  const ttlMs = fetched.maxAgeSec === undefined ? defaultTtl : Math.min(Math.max(fetched.maxAgeSec, 60), 86_400) * 1000;
  return {
    client: {
      client_id: clientId,
      ...(typeof doc.client_name === "string" && { client_name: doc.client_name.slice(0, 200) }),
      redirect_uris: uris as string[],
      token_endpoint_auth_method: "none",
      grant_types: grants ?? ["authorization_code", "refresh_token"],
      source: "metadata-document",
    },
    ttlMs,
  };
}
