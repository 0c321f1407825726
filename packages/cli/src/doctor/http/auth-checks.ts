import { canonicalResource, discoverAuthorizationServer, parseAuthChallenge } from "mcpkit/auth";
import { type CheckInfo, type Checks, failed, passed } from "../check.js";
import { printable } from "../printable.js";
import { attemptsText, type MetadataAttempt, metadataFetch } from "./metadata-fetch.js";

export const authChallenge: CheckInfo = {
  id: "auth-challenge",
  severity: "warning",
  summary:
    "A 401 carries WWW-Authenticate: Bearer with resource_metadata, the URL of the protected resource metadata (RFC 9728 §5.1).",
  fix: 'Answer 401 with WWW-Authenticate: Bearer resource_metadata="<origin>/.well-known/oauth-protected-resource<path>": clients of 2025-06-18 look nowhere else.',
};

export const resourceMetadata: CheckInfo = {
  id: "auth-resource-metadata",
  severity: "error",
  summary:
    "The protected resource metadata (RFC 9728) is found where a client looks (the challenge's resource_metadata, then /.well-known/oauth-protected-resource with the endpoint's path, then without) and names its authorization servers.",
  fix: 'Serve RFC 9728 metadata at /.well-known/oauth-protected-resource/<path of the endpoint>, as JSON with "resource" and "authorization_servers".',
};

export const resourceMatch: CheckInfo = {
  id: "auth-resource",
  severity: "error",
  summary:
    "The metadata's resource names this server: its origin, and a path that is the endpoint's or a prefix of it (RFC 9728 §3.3, RFC 8707).",
  fix: "Set resource in the metadata to the server's canonical URL (scheme, host and path of the endpoint, no trailing slash): clients refuse metadata for another resource.",
};

export const serverMetadata: CheckInfo = {
  id: "auth-server-metadata",
  severity: "error",
  summary:
    "The authorization server's metadata is found by RFC 8414 or OpenID Connect discovery, and its issuer is the one the resource names.",
  fix: "Serve the authorization server's metadata at /.well-known/oauth-authorization-server (or /.well-known/openid-configuration), with issuer exactly as the resource metadata names it.",
};

export const registration: CheckInfo = {
  id: "auth-registration",
  severity: "error",
  summary:
    "The authorization server lets a client it has never seen sign in: dynamic client registration (registration_endpoint) or client ID metadata documents (client_id_metadata_document_supported).",
  fix: "Offer dynamic client registration (RFC 7591) or client ID metadata documents; otherwise every user must register a client by hand and give its id to their MCP client.",
};

export const pkce: CheckInfo = {
  id: "auth-pkce",
  severity: "error",
  summary:
    "The authorization server lists S256 in code_challenge_methods_supported: clients refuse to sign in without it.",
  fix: 'Support PKCE with S256 and say so: "code_challenge_methods_supported": ["S256"] in the metadata.',
};

export const authRequired: CheckInfo = {
  id: "auth-required",
  severity: "info",
  summary:
    "The server asks for authorization; no sign-in is started, so the checks past it need a token (--header 'Authorization: Bearer …').",
  fix: "Give a token with --header 'Authorization: Bearer TOKEN' to check the rest (mcpkit call signs in and keeps its tokens).",
};

export const authToken: CheckInfo = {
  id: "auth-token",
  severity: "error",
  summary: "A token given with --header is accepted.",
  fix: "Check the token: it may have expired, be meant for another server (its audience), or lack a scope the server needs.",
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A URL's path without trailing slashes. */
const pathOf = (url: URL) => url.pathname.replace(/\/+$/, "");

/** The resource names this server: same origin, and its path the endpoint's or a prefix of it. */
function covers(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  const prefix = pathOf(url);
  const path = pathOf(server);
  return url.origin === server.origin && (path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * authorization §Authorization Server Discovery, as a client follows it, one check per
 * step, without ever starting a sign-in: the challenge, the protected resource metadata
 * and its resource, the authorization server's metadata, registration and PKCE. Stops at
 * the first step a client could not get past. Resolves true when a client could sign in.
 */
export async function authorizationChecks(
  server: URL,
  wwwAuthenticate: string | undefined,
  timeoutMs: number,
  checks: Checks,
): Promise<boolean> {
  const challenge = parseAuthChallenge(wwwAuthenticate ?? null);
  if (!challenge)
    checks.add(
      failed(
        authChallenge,
        wwwAuthenticate
          ? `The 401's WWW-Authenticate has no Bearer challenge: ${printable(wwwAuthenticate)}`
          : "The 401 has no WWW-Authenticate header",
      ),
    );
  else if (!challenge.resourceMetadata)
    checks.add(
      failed(
        authChallenge,
        "The 401's Bearer challenge names no resource_metadata; clients look at the well-known URI instead",
      ),
    );
  else checks.add(passed(authChallenge, `The 401 names resource_metadata ${printable(challenge.resourceMetadata)}`));

  // The order a client tries: the hint, the well-known URI with the endpoint's path, then at the root.
  const candidates = [
    ...(challenge?.resourceMetadata ? [challenge.resourceMetadata] : []),
    ...(pathOf(server) ? [`${server.origin}/.well-known/oauth-protected-resource${pathOf(server)}`] : []),
    `${server.origin}/.well-known/oauth-protected-resource`,
  ];
  const attempts: MetadataAttempt[] = [];
  const get = metadataFetch(timeoutMs, attempts);
  let metadata: Record<string, unknown> | undefined;
  let foundAt = "";
  for (const candidate of candidates) {
    let body: unknown;
    try {
      const response = await get(candidate);
      if (!response.ok) continue;
      body = await response.json();
    } catch (error) {
      const attempt = attempts.at(-1);
      if (attempt && attempt.error === undefined) attempt.error = `not JSON (${(error as Error).message})`;
      continue;
    }
    if (!isRecord(body) || typeof body.resource !== "string") {
      const attempt = attempts.at(-1);
      if (attempt) attempt.error = 'JSON without a "resource"';
      continue;
    }
    metadata = body;
    foundAt = candidate;
    break;
  }
  if (!metadata) {
    checks.add(
      failed(
        resourceMetadata,
        `No protected resource metadata where a client looks: ${printable(attemptsText(attempts))}`,
      ),
    );
    return false;
  }
  const servers = Array.isArray(metadata.authorization_servers)
    ? metadata.authorization_servers.filter((s): s is string => typeof s === "string")
    : [];
  if (servers.length === 0) {
    checks.add(failed(resourceMetadata, `The metadata at ${printable(foundAt)} names no authorization_servers`));
    return false;
  }
  checks.add(
    passed(resourceMetadata, `Found at ${printable(foundAt)}; authorization server ${printable(servers.join(", "))}`),
  );

  const resource = metadata.resource as string;
  if (!covers(resource, server)) {
    checks.add(
      failed(
        resourceMatch,
        `The metadata is for ${printable(resource)}, not for ${canonicalResource(server)}: clients refuse it`,
        `Set "resource" to ${canonicalResource(server)} in the metadata: clients refuse metadata for another resource.`,
      ),
    );
    return false;
  }
  checks.add(passed(resourceMatch, `${printable(resource)} names this server`));

  const issuer = servers[0] as string;
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    checks.add(failed(serverMetadata, `The authorization server ${printable(JSON.stringify(issuer))} is not a URL`));
    return false;
  }
  const asAttempts: MetadataAttempt[] = [];
  let as: Awaited<ReturnType<typeof discoverAuthorizationServer>>;
  try {
    as = await discoverAuthorizationServer(issuerUrl, metadataFetch(timeoutMs, asAttempts));
  } catch (error) {
    checks.add(failed(serverMetadata, printable((error as Error).message)));
    return false;
  }
  if (!as) {
    checks.add(
      failed(
        serverMetadata,
        `No metadata for the authorization server ${printable(issuer)}: ${printable(attemptsText(asAttempts))}`,
      ),
    );
    return false;
  }
  const servedAt = asAttempts.find((a) => a.status !== undefined && a.status < 300)?.url ?? issuer;
  checks.add(passed(serverMetadata, `Found at ${printable(servedAt)} (issuer ${printable(as.issuer)})`));

  const ways = [
    ...(typeof as.registration_endpoint === "string"
      ? [`dynamic client registration at ${printable(as.registration_endpoint)}`]
      : []),
    ...((as as { client_id_metadata_document_supported?: unknown }).client_id_metadata_document_supported === true
      ? ["client ID metadata documents"]
      : []),
  ];
  const registered = checks.add(
    ways.length > 0
      ? passed(registration, `A new client can sign in: ${ways.join(", and ")}`)
      : failed(
          registration,
          "The authorization server offers neither dynamic client registration nor client ID metadata documents",
        ),
  );

  const methods = as.code_challenge_methods_supported;
  const withPkce = checks.add(
    methods?.includes("S256")
      ? passed(pkce, `PKCE with S256 (${methods.join(", ")})`)
      : failed(
          pkce,
          methods === undefined
            ? "The metadata has no code_challenge_methods_supported: clients cannot tell PKCE is supported, and refuse to sign in"
            : `code_challenge_methods_supported is ${printable(JSON.stringify(methods))}, without S256`,
        ),
  );
  return registered.ok && withPkce.ok;
}
