import { importPKCS8 } from "jose";
import * as oauth from "oauth4webapi";
import { isLoopbackUrl } from "../../transports/http/localhost.js";
import type { DPoPSigner } from "./dpop.js";
import { OAuthError } from "./errors.js";
import type {
  ClientRegistration,
  EnterpriseCredentials,
  MachineCredentials,
  StoredTokens,
  WorkloadIdentity,
} from "./types.js";

/**
 * Token endpoint calls through oauth4webapi: the authorization code (with PKCE), refresh,
 * and client credentials grants, each carrying the RFC 8707 `resource`.
 */

/** Plain HTTP is tolerated for servers on this machine only. */
export interface GrantContext {
  as: oauth.AuthorizationServer;
  resource: string;
  fetch: typeof fetch;
  /** Plain HTTP is allowed for loopback authorization servers only. */
  insecure: boolean;
  /** Proves possession of this key at the token endpoint (RFC 9449 §5), when the server supports DPoP. */
  dpop?: DPoPSigner;
}

const requestOptions = (ctx: GrantContext, extra: Record<string, string>) => ({
  additionalParameters: { resource: ctx.resource, ...extra },
  [oauth.customFetch]: ctx.fetch,
  ...(ctx.insecure && { [oauth.allowInsecureRequests]: true }),
  ...(ctx.dpop && { DPoP: ctx.dpop.handle }),
});

/**
 * One token request and its processing. RFC 9449 §8: an authorization server that wants a
 * nonce answers use_dpop_nonce with one (the DPoP handle keeps it); the request is made
 * once more, with a fresh proof carrying it.
 */
async function tokenRequest(
  ctx: GrantContext,
  exchange: () => Promise<oauth.TokenEndpointResponse>,
): Promise<StoredTokens> {
  let response: oauth.TokenEndpointResponse;
  try {
    response = await exchange();
  } catch (error) {
    if (!ctx.dpop || !oauth.isDPoPNonceError(error)) throw error;
    response = await exchange();
  }
  return stored(response, ctx.as.issuer, ctx.dpop);
}

/**
 * client_secret_basic (RFC 6749 §2.3.1): id and secret form-encoded, then Base64. Only
 * characters outside the unreserved set are escaped, as most servers expect.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return (_as, client, _body, headers) => {
    const pair = `${encode(client.client_id)}:${encode(secret)}`;
    headers.set("authorization", `Basic ${Buffer.from(pair, "utf8").toString("base64")}`);
  };
}

/** RFC 8414 §2 default and the client's registered method decide how it authenticates. */
export function clientAuth(as: oauth.AuthorizationServer, client: ClientRegistration): oauth.ClientAuth {
  const supported = as.token_endpoint_auth_methods_supported;
  const method =
    client.token_endpoint_auth_method ??
    (!client.client_secret
      ? "none"
      : !supported || supported.includes("client_secret_basic")
        ? "client_secret_basic"
        : "client_secret_post");
  if (method === "none" || !client.client_secret) return oauth.None();
  return method === "client_secret_post"
    ? oauth.ClientSecretPost(client.client_secret)
    : secretBasic(client.client_secret);
}

function stored(response: oauth.TokenEndpointResponse, issuer: string, dpop: DPoPSigner | undefined): StoredTokens {
  const tokens: StoredTokens = {
    access_token: response.access_token,
    token_type: response.token_type,
    issuer,
    obtained_at: Date.now(),
  };
  // RFC 9449 §5: token_type DPoP means the token is bound to the key that made the proof.
  if (response.token_type.toLowerCase() === "dpop" && dpop) tokens.dpop_jkt = dpop.jkt;
  if (response.refresh_token) tokens.refresh_token = response.refresh_token;
  if (response.scope) tokens.scope = response.scope;
  if (typeof response.expires_in === "number") tokens.expires_at = Date.now() + response.expires_in * 1000;
  return tokens;
}

/** The server's own words (RFC 6749 §5.2 error and description) when it gave them. */
function failed(request: string, error: unknown): OAuthError {
  const detail =
    error instanceof oauth.ResponseBodyError
      ? `${error.error}${error.error_description ? ` (${error.error_description})` : ""}`
      : (error as Error).message;
  return new OAuthError("token_request_failed", `${request} failed: ${detail}`, { cause: error });
}

export async function exchangeCode(
  ctx: GrantContext,
  client: ClientRegistration,
  callback: URLSearchParams,
  redirectUri: string,
  codeVerifier: string,
): Promise<StoredTokens> {
  try {
    return await tokenRequest(ctx, async () => {
      const response = await oauth.authorizationCodeGrantRequest(
        ctx.as,
        { client_id: client.client_id },
        clientAuth(ctx.as, client),
        callback,
        redirectUri,
        codeVerifier,
        requestOptions(ctx, {}),
      );
      return oauth.processAuthorizationCodeResponse(ctx.as, { client_id: client.client_id }, response);
    });
  } catch (error) {
    throw failed("The authorization code token request", error);
  }
}

export async function refresh(
  ctx: GrantContext,
  client: ClientRegistration,
  tokens: StoredTokens,
): Promise<StoredTokens> {
  if (!tokens.refresh_token) throw new OAuthError("no_refresh_token", "There is no refresh token");
  const refreshToken = tokens.refresh_token;
  try {
    const refreshed = await tokenRequest(ctx, async () => {
      const response = await oauth.refreshTokenGrantRequest(
        ctx.as,
        { client_id: client.client_id },
        clientAuth(ctx.as, client),
        refreshToken,
        requestOptions(ctx, {}),
      );
      return oauth.processRefreshTokenResponse(ctx.as, { client_id: client.client_id }, response);
    });
    return {
      ...refreshed,
      ...(!refreshed.refresh_token && { refresh_token: refreshToken }),
      ...(!refreshed.scope && tokens.scope && { scope: tokens.scope }),
    };
  } catch (error) {
    throw failed("The refresh token request", error);
  }
}

export async function clientCredentials(
  ctx: GrantContext,
  credentials: MachineCredentials,
  scope: string | undefined,
): Promise<StoredTokens> {
  let auth: oauth.ClientAuth;
  if ("private_key_pem" in credentials) {
    const key = await importPKCS8(credentials.private_key_pem, credentials.algorithm);
    auth = oauth.PrivateKeyJwt(credentials.key_id ? { key, kid: credentials.key_id } : key);
  } else {
    auth =
      credentials.method === "client_secret_post"
        ? oauth.ClientSecretPost(credentials.client_secret)
        : secretBasic(credentials.client_secret);
  }
  const client = { client_id: credentials.client_id };
  try {
    // oauth4webapi sends additionalParameters only for code and refresh grants: resource goes here.
    const parameters = new URLSearchParams({ resource: ctx.resource, ...(scope && { scope }) });
    return await tokenRequest(ctx, async () => {
      const response = await oauth.clientCredentialsGrantRequest(
        ctx.as,
        client,
        auth,
        parameters,
        requestOptions(ctx, {}),
      );
      return oauth.processClientCredentialsResponse(ctx.as, client, response);
    });
  } catch (error) {
    throw failed("The client credentials token request", error);
  }
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";

/**
 * Enterprise-managed authorization: the ID token becomes an ID-JAG at the IdP (audience:
 * the MCP authorization server, resource: the MCP server), and the ID-JAG becomes the
 * access token at the authorization server.
 */
export async function enterpriseGrant(
  ctx: GrantContext,
  enterprise: EnterpriseCredentials,
  scope: string | undefined,
): Promise<StoredTokens> {
  const endpoint = new URL(enterprise.idpTokenEndpoint);
  const idp: oauth.AuthorizationServer = {
    issuer: enterprise.idpIssuer ?? endpoint.origin,
    token_endpoint: endpoint.href,
  };
  const idpClient = { client_id: enterprise.idpClientId };
  const idToken = typeof enterprise.idToken === "string" ? enterprise.idToken : await enterprise.idToken();
  let assertion: string;
  try {
    const exchange = new URLSearchParams({
      subject_token: idToken,
      subject_token_type: ID_TOKEN,
      requested_token_type: ID_JAG,
      audience: ctx.as.issuer,
      resource: ctx.resource,
      ...(scope && { scope }),
    });
    const response = await oauth.genericTokenEndpointRequest(
      idp,
      idpClient,
      enterprise.idpClientSecret ? secretBasic(enterprise.idpClientSecret) : oauth.None(),
      TOKEN_EXCHANGE,
      exchange,
      {
        [oauth.customFetch]: ctx.fetch,
        ...(isLoopbackUrl(endpoint.href) && { [oauth.allowInsecureRequests]: true }),
      },
    );
    // An ID-JAG is not an access token: RFC 8693 says its token_type is N_A.
    const issued = await oauth.processGenericTokenEndpointResponse(idp, idpClient, response, {
      recognizedTokenTypes: { n_a: () => {} },
    });
    if (issued.issued_token_type !== ID_JAG) {
      throw new Error(`the IdP issued ${String(issued.issued_token_type ?? "an untyped token")}, not an ID-JAG`);
    }
    assertion = issued.access_token;
  } catch (error) {
    throw failed("The token exchange at the enterprise IdP", error);
  }
  const client = { client_id: enterprise.client_id };
  try {
    return await jwtBearer(
      ctx,
      client,
      enterprise.client_secret ? secretBasic(enterprise.client_secret) : oauth.None(),
      assertion,
      scope,
    );
  } catch (error) {
    throw failed("The JWT bearer (ID-JAG) token request", error);
  }
}

/** RFC 7523 §2.1: the assertion is the grant; the resource and scope ride along. */
function jwtBearer(
  ctx: GrantContext,
  client: oauth.Client,
  auth: oauth.ClientAuth,
  assertion: string,
  scope: string | undefined,
): Promise<StoredTokens> {
  const parameters = new URLSearchParams({ assertion, resource: ctx.resource, ...(scope && { scope }) });
  return tokenRequest(ctx, async () => {
    const response = await oauth.genericTokenEndpointRequest(
      ctx.as,
      client,
      auth,
      JWT_BEARER,
      parameters,
      requestOptions(ctx, {}),
    );
    return oauth.processGenericTokenEndpointResponse(ctx.as, client, response);
  });
}

/** No client authentication and no client_id: the assertion alone identifies the workload. */
const anonymous: oauth.ClientAuth = () => {};

/**
 * Workload identity federation (the io.modelcontextprotocol/auth/wif extension): the
 * platform-issued JWT (a Kubernetes service account token, a SPIFFE JWT-SVID, a cloud
 * identity token) is presented with the JWT bearer grant, audience the authorization
 * server. A refusal (invalid_grant, invalid_scope, unauthorized_client) is reported as it
 * is: no retry, no other grant.
 */
export async function workloadGrant(
  ctx: GrantContext,
  workload: WorkloadIdentity,
  scope: string | undefined,
): Promise<StoredTokens> {
  const request = { audience: ctx.as.issuer, resource: ctx.resource };
  let assertion: string;
  try {
    assertion = typeof workload.assertion === "string" ? workload.assertion : await workload.assertion(request);
  } catch (error) {
    throw new OAuthError(
      "no_assertion",
      `The workload identity token could not be obtained: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const client = { client_id: workload.client_id ?? "workload" };
  try {
    return await jwtBearer(ctx, client, workload.client_id ? oauth.None() : anonymous, assertion, scope);
  } catch (error) {
    throw failed("The JWT bearer (workload identity) token request", error);
  }
}
