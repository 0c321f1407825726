import { Option } from "commander";
import type { ResourceServer } from "mcpkit/auth";
import { UsageError } from "../usage-error.js";

/** `mcpkit serve --port` as an OAuth resource server (basic/authorization). */
export interface AuthFlags {
  authServer?: string;
  jwksUrl?: string;
  introspectionUrl?: string;
  introspectionClient?: string;
  publicUrl?: string;
  requiredScope?: string[];
}

export const INTROSPECTION_SECRET_VARIABLE = "MCPKIT_INTROSPECTION_SECRET";

export const authOptions = (): Option[] => [
  new Option("--auth-server <issuer>", "require OAuth bearer tokens issued by this authorization server (HTTP)"),
  new Option("--jwks-url <url>", "with --auth-server: verify JWT access tokens against these keys"),
  new Option(
    "--introspection-url <url>",
    `with --auth-server: verify tokens by introspection (RFC 7662); the secret is read from $${INTROSPECTION_SECRET_VARIABLE}`,
  ),
  new Option("--introspection-client <id>", "this server's client id for --introspection-url"),
  new Option(
    "--public-url <url>",
    "the MCP endpoint's public URL, the tokens' audience (default: the listening /mcp URL)",
  ),
  new Option("--required-scope <scope...>", "with --auth-server: scopes every request needs"),
];

const url = (value: string, flag: string) => {
  try {
    return new URL(value).href;
  } catch {
    throw new UsageError(`${flag} takes a URL, not "${value}"`);
  }
};

/**
 * Checks the flags before anything starts; true when tokens of another authorization
 * server are required. With --authorization-server (this server issues the tokens),
 * --public-url and --required-scope serve it instead.
 */
export function checkAuthFlags(flags: AuthFlags & { authorizationServer?: string }, http: boolean): boolean {
  const { authServer, jwksUrl, introspectionUrl, introspectionClient, publicUrl, requiredScope } = flags;
  if (
    flags.authorizationServer !== undefined &&
    [authServer, jwksUrl, introspectionUrl, introspectionClient].every((v) => v === undefined)
  ) {
    if (publicUrl) url(publicUrl, "--public-url");
    return false;
  }
  const given = [authServer, jwksUrl, introspectionUrl, introspectionClient, publicUrl, requiredScope];
  if (given.every((value) => value === undefined)) return false;
  if (!http) throw new UsageError("Authorization applies to HTTP: add --port");
  if (!flags.authServer) throw new UsageError("--jwks-url, --introspection-url and the like need --auth-server ISSUER");
  url(flags.authServer, "--auth-server");
  if (!flags.jwksUrl === !flags.introspectionUrl)
    throw new UsageError("With --auth-server, give exactly one of --jwks-url (JWT tokens) or --introspection-url");
  if (flags.introspectionUrl && (!flags.introspectionClient || !process.env[INTROSPECTION_SECRET_VARIABLE]))
    throw new UsageError(
      `--introspection-url needs --introspection-client and the client secret in $${INTROSPECTION_SECRET_VARIABLE}`,
    );
  if (flags.publicUrl) url(flags.publicUrl, "--public-url");
  return true;
}

/**
 * The resource server for the endpoint at `endpoint` (its public URL is the tokens'
 * audience). mcpkit/auth is loaded only here: a server without authorization never loads it.
 */
export async function resourceServer(flags: AuthFlags, endpoint: string): Promise<ResourceServer> {
  const { introspectionVerifier, jwtVerifier, protectedResource } = await import("mcpkit/auth");
  const resource = flags.publicUrl ?? endpoint;
  const issuer = flags.authServer as string;
  const verifier = flags.jwksUrl
    ? jwtVerifier({ jwksUrl: url(flags.jwksUrl, "--jwks-url"), issuer, audience: resource })
    : introspectionVerifier({
        endpoint: url(flags.introspectionUrl as string, "--introspection-url"),
        clientId: flags.introspectionClient as string,
        clientSecret: process.env[INTROSPECTION_SECRET_VARIABLE] as string,
        audience: resource,
        cacheSeconds: 30,
      });
  return protectedResource({
    verifier,
    resource,
    authorizationServers: [issuer],
    ...(flags.requiredScope && { requiredScopes: flags.requiredScope, scopesSupported: flags.requiredScope }),
  });
}
