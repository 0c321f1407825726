import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import { KeySetUnavailableError, type RemoteKeySetOptions, remoteKeySet } from "./remote-keys.js";
import { type AuthInfo, InvalidTokenError, scopesOf, type TokenVerifier } from "./types.js";

export interface JwtVerifierOptions {
  /** Where the authorization server publishes its keys… */
  jwksUrl?: string | URL;
  /** …or the keys themselves. */
  jwks?: JSONWebKeySet;
  /** The expected `iss`. */
  issuer: string;
  /** This server's canonical resource URI (RFC 8707): the token's `aud` must name it. */
  audience: string;
  /** Leeway for `exp` and `nbf`, seconds (default 30). */
  clockToleranceSec?: number;
  /** Accepted signing algorithms (default: what the keys allow, never "none"). */
  algorithms?: string[];
  /** How `jwksUrl` is fetched: time limit, the fewest ms between fetches, how long keys are kept. */
  jwksFetch?: RemoteKeySetOptions;
}

/**
 * Verifies JWT access tokens against a JWKS (RFC 9068): signature, issuer, audience bound
 * to this server (authorization §Token Audience Binding), expiry and not-before.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys = options.jwks
    ? createLocalJWKSet(options.jwks)
    : options.jwksUrl
      ? remoteKeySet(new URL(options.jwksUrl), options.jwksFetch)
      : undefined;
  if (!keys) throw new TypeError("jwtVerifier needs jwksUrl or jwks");
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        clockTolerance: options.clockToleranceSec ?? 30,
        ...(options.algorithms && { algorithms: options.algorithms }),
      }));
    } catch (error) {
      // The keys could not be had (the JWKS endpoint down or answering nonsense): no fault of
      // the token, so not an InvalidTokenError; the resource server reports it to onError
      // and tells the client only that the token could not be verified.
      if (error instanceof KeySetUnavailableError || !(error instanceof errors.JOSEError))
        throw new Error(`The authorization server's keys could not be fetched: ${(error as Error).message}`, {
          cause: error,
        });
      throw new InvalidTokenError(`The access token is not valid here: ${(error as Error).message}`, { cause: error });
    }
    const info: AuthInfo = {
      token,
      scopes: scopesOf(payload.scope ?? payload.scp),
      claims: payload as Record<string, unknown>,
    };
    if (typeof payload.iss === "string") info.issuer = payload.iss;
    if (typeof payload.sub === "string") info.subject = payload.sub;
    const client = payload.client_id ?? payload.azp;
    if (typeof client === "string") info.clientId = client;
    if (typeof payload.exp === "number") info.expiresAt = payload.exp * 1000;
    return info;
  };
}
