import * as oauth from "oauth4webapi";
import { isLoopbackUrl } from "../../../../transports/http/localhost.js";
import { UpstreamError, type UpstreamIdentity, type UpstreamTokens } from "./types.js";

/** How an upstream provider is reached: its endpoints as oauth4webapi sees them, our client there. */
export interface UpstreamClient {
  as: oauth.AuthorizationServer;
  clientId: string;
  clientSecret: string | undefined;
  fetch: typeof fetch | undefined;
}

/** http:// endpoints are allowed for loopback providers only (a local IdP in development and tests). */
export function requestOptions(client: UpstreamClient) {
  const insecure = [client.as.issuer, client.as.token_endpoint].every((u) => u === undefined || isLoopbackUrl(u));
  return {
    ...(client.fetch && { [oauth.customFetch]: client.fetch }),
    ...(insecure && { [oauth.allowInsecureRequests]: true }),
    signal: () => AbortSignal.timeout(15_000),
  };
}

/** client_secret_basic when the provider offers it (the OAuth default), else client_secret_post. */
function authentication(client: UpstreamClient): oauth.ClientAuth {
  if (!client.clientSecret) return oauth.None();
  const methods = client.as.token_endpoint_auth_methods_supported;
  return methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
    ? oauth.ClientSecretPost(client.clientSecret)
    : oauth.ClientSecretBasic(client.clientSecret);
}

const tokensOf = (response: oauth.TokenEndpointResponse, previous?: UpstreamTokens): UpstreamTokens => {
  const refreshToken = response.refresh_token ?? previous?.refreshToken;
  return {
    accessToken: response.access_token,
    ...(refreshToken && { refreshToken }),
    ...(typeof response.expires_in === "number" && { expiresAt: Date.now() + response.expires_in * 1000 }),
    ...(typeof response.scope === "string" && { scope: response.scope }),
  };
};

/** The authorization URL, with PKCE (S256) and, for OpenID Connect, a nonce. */
export async function authorizationUrl(
  client: UpstreamClient,
  options: { redirectUri: string; state: string; scope: string; nonce?: string; params?: Record<string, string> },
): Promise<{ url: URL; verifier: string }> {
  if (!client.as.authorization_endpoint) throw new UpstreamError(`${client.as.issuer} has no authorization endpoint`);
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(client.as.authorization_endpoint);
  const params: Record<string, string> = {
    client_id: client.clientId,
    redirect_uri: options.redirectUri,
    response_type: "code",
    scope: options.scope,
    state: options.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...(options.nonce && { nonce: options.nonce }),
    ...options.params,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { url, verifier };
}

/** The code from the callback, exchanged for tokens (and the validated ID token's claims, for OpenID Connect). */
export async function exchangeCode(
  client: UpstreamClient,
  callback: URLSearchParams,
  options: { state: string; redirectUri: string; verifier: string; nonce?: string },
): Promise<{ tokens: UpstreamTokens; claims: oauth.IDToken | undefined }> {
  const ours = { client_id: client.clientId };
  try {
    const params = oauth.validateAuthResponse(client.as, ours, callback, options.state);
    const response = await oauth.authorizationCodeGrantRequest(
      client.as,
      ours,
      authentication(client),
      params,
      options.redirectUri,
      options.verifier,
      requestOptions(client),
    );
    const result = await oauth.processAuthorizationCodeResponse(client.as, ours, response, {
      ...(options.nonce ? { expectedNonce: options.nonce, requireIdToken: true } : {}),
    });
    return { tokens: tokensOf(result), claims: oauth.getValidatedIdTokenClaims(result) };
  } catch (error) {
    throw upstreamError(client, error);
  }
}

export async function refreshTokens(client: UpstreamClient, tokens: UpstreamTokens): Promise<UpstreamTokens> {
  if (!tokens.refreshToken) throw new UpstreamError(`The sign-in at ${client.as.issuer} has no refresh token`);
  const ours = { client_id: client.clientId };
  try {
    const response = await oauth.refreshTokenGrantRequest(
      client.as,
      ours,
      authentication(client),
      tokens.refreshToken,
      requestOptions(client),
    );
    return tokensOf(await oauth.processRefreshTokenResponse(client.as, ours, response), tokens);
  } catch (error) {
    throw upstreamError(client, error);
  }
}

/** An OAuth error from the provider in words a person can act on. */
function upstreamError(client: UpstreamClient, error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const where = new URL(client.as.token_endpoint ?? client.as.issuer).host;
  if (error instanceof oauth.AuthorizationResponseError)
    return new UpstreamError(
      `${where} refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`,
      { cause: error },
    );
  if (error instanceof oauth.ResponseBodyError)
    return new UpstreamError(
      `${where} refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`,
      { cause: error },
    );
  return new UpstreamError(`The sign-in at ${where} failed: ${(error as Error).message}`, { cause: error });
}

/** The identity in an ID token's claims. */
export function identityOfClaims(claims: oauth.IDToken): UpstreamIdentity {
  const name = claims.name ?? claims.preferred_username ?? claims.email;
  return {
    subject: claims.sub,
    ...(typeof name === "string" && { name }),
    ...(typeof claims.email === "string" && { email: claims.email }),
    ...(Array.isArray(claims.groups) && { groups: claims.groups.filter((g): g is string => typeof g === "string") }),
  };
}
