import { Option } from "commander";
import type { AuthorizationServer, ResourceServer, UpstreamProvider } from "mcpkit/auth";
import { UsageError } from "../usage-error.js";
import type { Cluster } from "./cluster.js";

/** `mcpkit serve --authorization-server`: an authorization server in front of an identity provider, on the server's origin. */
export interface AuthorizationServerFlags {
  authorizationServer?: string;
  clientId?: string;
  clientSecret?: string;
  upstreamScope?: string[];
  authorizationSecret?: string;
}

export const CLIENT_SECRET_VARIABLE = "MCPKIT_UPSTREAM_CLIENT_SECRET";
export const AUTHORIZATION_SECRET_VARIABLE = "MCPKIT_AUTHORIZATION_SECRET";

const PRESETS = ["github", "google", "entra", "okta", "auth0", "keycloak"];

export const authorizationServerOptions = (): Option[] => [
  new Option(
    "--authorization-server <provider>",
    `serve an OAuth authorization server on this server's origin, people signing in at: dev (a test user, loopback only), ${PRESETS.join(", ")} (entra:TENANT, okta:DOMAIN, auth0:DOMAIN, keycloak:REALM_URL, github:HOST for Enterprise), or an OpenID Connect discovery URL`,
  ),
  new Option("--client-id <id>", "with --authorization-server: this server's client id at the identity provider"),
  new Option(
    "--client-secret <secret>",
    "with --authorization-server: its client secret there (better: the environment variable)",
  ).env(CLIENT_SECRET_VARIABLE),
  new Option("--upstream-scope <scope...>", "with --authorization-server: the scopes to ask the identity provider for"),
  new Option(
    "--authorization-secret <secret>",
    "with --authorization-server: seals tokens and keys at rest, the same on every node (32+ bytes; default: random per process)",
  ).env(AUTHORIZATION_SECRET_VARIABLE),
];

/** Where people sign in, as the flag names it. */
export type UpstreamChoice =
  | { kind: "dev" }
  | { kind: "preset"; name: string; parameter?: string }
  | { kind: "oidc"; issuer: string };

const LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"];

/** Checks the flags before anything starts; the upstream choice when the authorization server is on. */
export function checkAuthorizationServerFlags(
  flags: AuthorizationServerFlags & { authServer?: string; publicUrl?: string },
  serving: { http: boolean; host: string; cluster: boolean },
): UpstreamChoice | undefined {
  const value = flags.authorizationServer;
  if (value === undefined) {
    const stray = flags.clientId !== undefined ? "--client-id" : flags.upstreamScope ? "--upstream-scope" : undefined;
    if (stray) throw new UsageError(`${stray} applies with --authorization-server only`);
    return undefined;
  }
  if (!serving.http) throw new UsageError("--authorization-server applies to HTTP: add --port");
  if (flags.authServer !== undefined)
    throw new UsageError(
      "Choose one: --authorization-server (this server issues tokens) or --auth-server (another one does)",
    );
  if (serving.cluster && !flags.authorizationSecret)
    throw new UsageError(
      `--redis with --authorization-server needs --authorization-secret or $${AUTHORIZATION_SECRET_VARIABLE}: every node must open what the others sealed`,
    );
  if (flags.authorizationSecret !== undefined && Buffer.byteLength(flags.authorizationSecret) < 32)
    throw new UsageError("--authorization-secret must be at least 32 bytes");
  if (value === "dev") {
    const publicHost = flags.publicUrl ? new URL(flags.publicUrl).hostname : serving.host;
    if (!LOOPBACK.includes(serving.host) || !LOOPBACK.includes(publicHost))
      throw new UsageError(
        "--authorization-server dev signs everyone in as a test user: it serves on loopback only (--host 127.0.0.1, no public URL elsewhere)",
      );
    if (flags.clientId !== undefined) throw new UsageError("--authorization-server dev takes no --client-id");
    return { kind: "dev" };
  }
  if (!flags.clientId || !flags.clientSecret)
    throw new UsageError(
      `--authorization-server ${value} needs --client-id and the client secret (--client-secret or $${CLIENT_SECRET_VARIABLE}): register this server as an application at the identity provider, with the redirect URI <this server's origin>/callback`,
    );
  if (/^https?:\/\//.test(value)) {
    try {
      return { kind: "oidc", issuer: new URL(value).href };
    } catch {
      throw new UsageError(`--authorization-server takes a preset or an OpenID Connect discovery URL, not "${value}"`);
    }
  }
  const colon = value.indexOf(":");
  const name = colon < 0 ? value : value.slice(0, colon);
  const parameter = colon < 0 ? undefined : value.slice(colon + 1);
  if (!PRESETS.includes(name))
    throw new UsageError(
      `--authorization-server takes dev, ${PRESETS.join(", ")} or an OpenID Connect discovery URL, not "${value}"`,
    );
  const needs: Record<string, string> = { entra: "TENANT", okta: "DOMAIN", auth0: "DOMAIN", keycloak: "REALM_URL" };
  if (needs[name] && !parameter)
    throw new UsageError(`--authorization-server ${name} needs its ${needs[name]}: ${name}:${needs[name]}`);
  return { kind: "preset", name, ...(parameter && { parameter }) };
}

/** The upstream provider the choice names. */
async function upstreamOf(choice: UpstreamChoice, flags: AuthorizationServerFlags, scopes: string[] | undefined) {
  const auth = await import("mcpkit/auth");
  const credentials = { clientId: flags.clientId as string, clientSecret: flags.clientSecret as string };
  if (choice.kind === "dev") return auth.developmentUpstream();
  if (choice.kind === "oidc")
    return auth.oidcUpstream({ issuer: choice.issuer, ...credentials, ...(scopes && { scopes }) });
  if (choice.name === "github" && choice.parameter) {
    // GitHub Enterprise Server: the same endpoints on its own host.
    const host = `https://${choice.parameter}`;
    return auth.upstreamPreset("github", {
      ...credentials,
      ...(scopes && { scopes }),
      endpoints: {
        authorizationEndpoint: `${host}/login/oauth/authorize`,
        tokenEndpoint: `${host}/login/oauth/access_token`,
        userEndpoint: `${host}/api/v3/user`,
      },
    });
  }
  return auth.upstreamPreset(choice.name as never, {
    ...credentials,
    ...(choice.parameter && { parameter: choice.parameter }),
    ...(scopes && { scopes }),
  });
}

export interface RunningAuthorization {
  as: AuthorizationServer;
  resource: ResourceServer;
  upstream: UpstreamProvider;
  /** The resource server for another of `also`'s endpoints (a gateway's virtual server). */
  resourceFor(endpoint: string): ResourceServer;
}

/**
 * The authorization server on the server's origin (its issuer), for the MCP endpoint at
 * `endpoint`, and the resource server checking its tokens there (DPoP accepted). With a
 * cluster, its state lives in the cluster's Redis.
 */
export async function startAuthorization(
  choice: UpstreamChoice,
  flags: AuthorizationServerFlags & { publicUrl?: string; requiredScope?: string[] },
  options: {
    endpoint: string;
    upstreamScopes?: string[] | undefined;
    cluster?: Cluster | undefined;
    /** Other endpoints on the same origin it issues tokens for (each its own audience), asked at each authorization request: they may change. */
    also?: () => readonly string[];
  },
): Promise<RunningAuthorization> {
  const { createAuthorizationServer, protectedResource } = await import("mcpkit/auth");
  const resource = flags.publicUrl ?? options.endpoint;
  const issuer = new URL(resource).origin;
  const upstream = await upstreamOf(choice, flags, flags.upstreamScope ?? options.upstreamScopes);
  let store: import("mcpkit/auth").AuthorizationStore | undefined;
  if (options.cluster) {
    const { RedisAuthorizationStore } = await import("@mcpkit/redis");
    store = new RedisAuthorizationStore(options.cluster.redis);
  }
  const scopes = flags.requiredScope;
  const as = createAuthorizationServer({
    issuer,
    resources: () => [resource, ...(options.also?.() ?? [])],
    upstream,
    ...(flags.authorizationSecret && { secret: flags.authorizationSecret }),
    ...(store && { store }),
    ...(scopes && { scopes }),
    onError: (error) => process.stderr.write(`mcpkit: authorization server: ${(error as Error).message ?? error}\n`),
  });
  const resourceFor = (endpoint: string) =>
    protectedResource({
      verifier: as.verifier(endpoint),
      resource: endpoint,
      authorizationServers: [as.issuer],
      dpop: true,
      ...(scopes && { requiredScopes: scopes, scopesSupported: scopes }),
    });
  return { as, upstream, resource: resourceFor(resource), resourceFor };
}
