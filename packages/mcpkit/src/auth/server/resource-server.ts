import type { HeaderReader } from "../../transports/transport.js";
import { type BearerChallenge, bearerChallenge } from "../challenge.js";
import { type DPoPOptions, type DPoPVerifier, dpopVerifier, ProofRefusal } from "./dpop.js";
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
  /**
   * Accept DPoP-bound tokens (RFC 9449): `true`, or options (require them, demand nonces,
   * algorithms, the proof window, a shared replay cache). Off by default: Bearer only.
   */
  dpop?: boolean | DPoPOptions;
  /**
   * A verifier that failed for another reason than a bad token (the JWKS or introspection
   * endpoint unreachable…): the client gets 401, and the cause goes here (default: stderr).
   */
  onError?: (error: unknown) => void;
}

/** What authenticate() needs of a request: its method and URL for DPoP proofs, and its headers. */
export interface AuthenticatedRequest {
  readonly method: string;
  /** The absolute URL the request arrived at. */
  readonly url: string;
  readonly headers: HeaderReader;
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
  authenticate(request: AuthenticatedRequest): Promise<AuthInfo | Response>;
  /** A WWW-Authenticate value pointing at the metadata (RFC 9728 §5.1). */
  challenge(error?: string, scope?: string[]): string;
}

/** `Bearer token` or `DPoP token` (RFC 6750 §2.1, RFC 9449 §7.1): the scheme in lower case and the token. */
function credentials(header: string | null): { scheme: "bearer" | "dpop"; token: string } | undefined {
  const match = header ? /^(Bearer|DPoP)\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  return { scheme: (match[1] as string).toLowerCase() as "bearer" | "dpop", token: match[2] as string };
}

/**
 * basic/authorization, resource server side: the Protected Resource Metadata document,
 * tokens checked on every request, 401 with a challenge that leads clients to the
 * authorization server, and 403 when a required scope is missing. With `dpop`, tokens
 * bound to a key (cnf.jkt) are accepted only with a fresh proof of that key.
 */
export function protectedResource(options: ResourceServerOptions): ResourceServer {
  const resourceUrl = new URL(options.resource);
  const path = resourceUrl.pathname === "/" ? "" : resourceUrl.pathname.replace(/\/+$/, "");
  const metadataPath = `/.well-known/oauth-protected-resource${path}`;
  const metadataUrl = `${resourceUrl.origin}${metadataPath}`;
  const required = options.requiredScopes ?? [];
  const dpop: DPoPVerifier | undefined = options.dpop
    ? dpopVerifier(options.dpop === true ? {} : options.dpop, resourceUrl.origin)
    : undefined;

  /**
   * The challenges for an answer: Bearer unless DPoP is required, DPoP (with its algs)
   * whenever it is accepted; an error goes on the scheme the client used.
   */
  const challenge = (error?: string, scope?: string[], description?: string, used?: "bearer" | "dpop") => {
    const scopes = scope ?? (required.length > 0 ? required : options.scopesSupported);
    const params: BearerChallenge = {
      ...(scopes && scopes.length > 0 && { scope: scopes.join(" ") }),
      resourceMetadata: metadataUrl,
    };
    const bearer = bearerChallenge(used === "dpop" ? params : { ...(error && { error }), ...params });
    if (!dpop) return bearer;
    const dpopParams =
      used === "bearer"
        ? params
        : { ...(error && { error }), ...(description && { errorDescription: description }), ...params };
    const dpopChallenge = bearerChallenge(dpopParams, "DPoP", dpop.algorithms);
    return dpop.required ? dpopChallenge : `${bearer}, ${dpopChallenge}`;
  };

  const refuse = (
    status: number,
    error: string | undefined,
    description: string,
    options: { scope?: string[]; used?: "bearer" | "dpop"; nonce?: string } = {},
  ) =>
    new Response(JSON.stringify({ error: error ?? "invalid_token", error_description: description }), {
      status,
      headers: {
        "content-type": "application/json",
        "www-authenticate": challenge(error, options.scope, error ? description : undefined, options.used),
        ...(options.nonce && { "dpop-nonce": options.nonce }),
      },
    });

  const metadata = () => ({
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    ...(options.scopesSupported && { scopes_supported: options.scopesSupported }),
    bearer_methods_supported: ["header"],
    ...(options.resourceName && { resource_name: options.resourceName }),
    ...(options.resourceDocumentation && { resource_documentation: options.resourceDocumentation }),
    // RFC 9728 §2: what a DPoP-accepting resource says about proofs.
    ...(dpop && {
      dpop_signing_alg_values_supported: dpop.algorithms,
      dpop_bound_access_tokens_required: dpop.required,
    }),
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
      // authorization §Token Requirements: only the Authorization header, never the query string.
      const presented = credentials(request.headers.get("authorization"));
      if (!presented || (presented.scheme === "dpop" && !dpop)) {
        return refuse(401, undefined, "This server needs an access token in the Authorization header");
      }
      const { scheme, token } = presented;
      if (scheme === "bearer" && dpop?.required) {
        return refuse(401, "invalid_token", "This server accepts DPoP-bound tokens only", { used: "bearer" });
      }
      let proof: Awaited<ReturnType<DPoPVerifier["check"]>> | undefined;
      if (scheme === "dpop" && dpop) {
        try {
          proof = await dpop.check(request, token);
        } catch (error) {
          if (!(error instanceof ProofRefusal)) throw error;
          return refuse(401, error.code, error.message, { used: "dpop", nonce: error.nonce });
        }
      }
      let info: AuthInfo;
      try {
        info = await options.verifier(token);
      } catch (error) {
        if (!(error instanceof InvalidTokenError)) {
          (options.onError ?? ((e) => process.stderr.write(`mcpkit: token verification failed: ${String(e)}\n`)))(
            error,
          );
        }
        const message = error instanceof InvalidTokenError ? error.message : "The access token could not be verified";
        return refuse(401, "invalid_token", message, { used: scheme });
      }
      const jkt = (info.claims.cnf as { jkt?: unknown } | undefined)?.jkt;
      if (dpop && scheme === "bearer" && jkt !== undefined) {
        // RFC 9449 §7.2: a DPoP-bound token is worthless without its proof.
        return refuse(
          401,
          "invalid_token",
          "This access token is DPoP-bound: send it with the DPoP scheme and a proof",
          {
            used: "bearer",
          },
        );
      }
      if (proof) {
        if (jkt !== proof.jkt) {
          return refuse(401, "invalid_token", "The access token is not bound to the key of this DPoP proof", {
            used: "dpop",
          });
        }
        // Recorded last, so only proofs that passed every other check fill the cache.
        if (!(await dpop?.remember(proof))) {
          return refuse(401, "invalid_dpop_proof", "This DPoP proof was used before; make a fresh one", {
            used: "dpop",
          });
        }
      }
      const missing = required.filter((s) => !info.scopes.includes(s));
      if (missing.length > 0)
        return refuse(403, "insufficient_scope", `This needs the scope ${missing.join(" ")}`, {
          scope: required,
          used: scheme,
        });
      return info;
    },
    challenge: (error, scope) => challenge(error, scope),
  };
}
