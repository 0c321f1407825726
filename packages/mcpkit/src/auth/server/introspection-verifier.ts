import { type AuthInfo, InvalidTokenError, scopesOf, type TokenVerifier } from "./types.js";

export interface IntrospectionVerifierOptions {
  /** The authorization server's introspection endpoint (RFC 7662). */
  endpoint: string | URL;
  /** This server's credentials at the authorization server. */
  clientId: string;
  clientSecret: string;
  /** This server's canonical resource URI: the token's `aud` must name it. */
  audience: string;
  fetch?: typeof fetch;
  /** Seconds an answer may be reused for the same token (default 0: ask every time). */
  cacheSeconds?: number;
}

/**
 * Verifies opaque tokens by asking the authorization server (RFC 7662): the token must be
 * active, unexpired, and issued for this server's audience.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString("base64");
  const cache = new Map<string, { info: AuthInfo; until: number }>();
  return async (token) => {
    const hit = cache.get(token);
    if (hit && hit.until > Date.now()) return hit.info;
    let response: Response;
    try {
      response = await fetchImpl(options.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
          authorization: `Basic ${basic}`,
        },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
      });
    } catch (error) {
      // The endpoint is unreachable: no fault of the token, so not an InvalidTokenError (the
      // resource server reports it to its onError and answers 401 without the detail).
      throw new Error(`Token introspection failed: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) throw new Error(`Token introspection failed with HTTP ${response.status}`);
    const body = (await response.json()) as Record<string, unknown>;
    if (body.active !== true) throw new InvalidTokenError("The access token is not active");
    if (typeof body.exp === "number" && body.exp * 1000 < Date.now())
      throw new InvalidTokenError("The access token has expired");
    const audiences = scopesOf(body.aud);
    if (!audiences.includes(options.audience)) {
      throw new InvalidTokenError(
        `The access token was issued for ${audiences.join(", ") || "no audience"}, not for ${options.audience}`,
      );
    }
    const info: AuthInfo = { token, scopes: scopesOf(body.scope), claims: body };
    if (typeof body.iss === "string") info.issuer = body.iss;
    if (typeof body.sub === "string") info.subject = body.sub;
    if (typeof body.client_id === "string") info.clientId = body.client_id;
    if (typeof body.exp === "number") info.expiresAt = body.exp * 1000;
    if (options.cacheSeconds) cache.set(token, { info, until: Date.now() + options.cacheSeconds * 1000 });
    return info;
  };
}
