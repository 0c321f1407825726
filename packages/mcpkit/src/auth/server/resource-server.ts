import type { HeaderReader } from "../../transports/transport.js";
import { bearerChallenge } from "../challenge.js";
import { type AuthInfo, InvalidTokenError, type TokenVerifier } from "./types.js";

export interface ResourceServerOptions {
  verifier: TokenVerifier;
  /** The MCP endpoint's canonical URI, e.g. https://mcp.example.com/mcp (RFC 8707): tokens must be for it. */
  resource: string;
  /** Issuer URLs of the authorization servers clients may use. */
  authorizationServers: string[];
  /** Scopes to advertise (and to ask for when a request has no token). */
  scopesSupported?: string[];
  /** Scopes every request needs, beyond a valid token. */
  requiredScopes?: string[];
  resourceName?: string;
  resourceDocumentation?: string;
}

export interface ResourceServer {
  readonly resource: string;
  /** Path of the Protected Resource Metadata document (RFC 9728 §3.1, path-suffixed). */
  readonly metadataPath: string;
  readonly metadataUrl: string;
  /** RFC 9728 §2: the Protected Resource Metadata document. */
  metadata(): Record<string, unknown>;
  /** Answers a request for the metadata document. */
  serveMetadata(request?: unknown): Response;
  /** The caller's verified token, or the 401/403 answer to send instead. */
  authenticate(request: { readonly headers: HeaderReader }): Promise<AuthInfo | Response>;
  /** A WWW-Authenticate value pointing at the metadata (RFC 9728 §5.1). */
  challenge(error?: string, scope?: string[]): string;
}

/**
 * basic/authorization, resource server side: the Protected Resource Metadata document,
 * bearer tokens checked on every request, 401 with a challenge that leads clients to the
 * authorization server, and 403 when a required scope is missing.
 */
export function protectedResource(options: ResourceServerOptions): ResourceServer {
  const resourceUrl = new URL(options.resource);
  const path = resourceUrl.pathname === "/" ? "" : resourceUrl.pathname.replace(/\/+$/, "");
  const metadataPath = `/.well-known/oauth-protected-resource${path}`;
  const metadataUrl = `${resourceUrl.origin}${metadataPath}`;
  const required = options.requiredScopes ?? [];

  const challenge = (error?: string, scope?: string[]) => {
    const scopes = scope ?? (required.length > 0 ? required : options.scopesSupported);
    return bearerChallenge({
      ...(error && { error }),
      ...(scopes && scopes.length > 0 && { scope: scopes.join(" ") }),
      resourceMetadata: metadataUrl,
    });
  };

  const refuse = (status: number, error: string | undefined, description: string, scope?: string[]) =>
    new Response(JSON.stringify({ error: error ?? "invalid_token", error_description: description }), {
      status,
      headers: { "content-type": "application/json", "www-authenticate": challenge(error, scope) },
    });

  const metadata = () => ({
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    ...(options.scopesSupported && { scopes_supported: options.scopesSupported }),
    bearer_methods_supported: ["header"],
    ...(options.resourceName && { resource_name: options.resourceName }),
    ...(options.resourceDocumentation && { resource_documentation: options.resourceDocumentation }),
  });

  return {
    resource: options.resource,
    metadataPath,
    metadataUrl,
    metadata,
    serveMetadata() {
      return new Response(JSON.stringify(metadata()), {
        status: 200,
        headers: {
          "content-type": "application/json",
          "cache-control": "max-age=3600",
          "access-control-allow-origin": "*",
        },
      });
    },
    async authenticate(request) {
      const header = request.headers.get("authorization");
      // authorization §Token Requirements: only the Authorization header, never the query string.
      const match = header ? /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header) : null;
      if (!match) return refuse(401, undefined, "This server needs an access token in the Authorization header");
      let info: AuthInfo;
      try {
        info = await options.verifier(match[1] as string);
      } catch (error) {
        const message = error instanceof InvalidTokenError ? error.message : "The access token could not be verified";
        return refuse(401, "invalid_token", message);
      }
      const missing = required.filter((s) => !info.scopes.includes(s));
      if (missing.length > 0)
        return refuse(403, "insufficient_scope", `This needs the scope ${missing.join(" ")}`, required);
      return info;
    },
    challenge,
  };
}
