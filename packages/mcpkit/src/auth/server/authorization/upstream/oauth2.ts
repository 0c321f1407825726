import { authorizationUrl, exchangeCode, refreshTokens, type UpstreamClient } from "./token-endpoint.js";
import { UpstreamError, type UpstreamIdentity, type UpstreamProvider } from "./types.js";

export interface OAuth2UpstreamOptions {
  /** Short name: subjects are `<id>:<user id>`. */
  id: string;
  title: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Answers the signed-in user as JSON, with the access token as Bearer (GitHub's /user). */
  userEndpoint: string;
  /** The JSON fields holding the user's stable id and display name (default "id" and "login"). */
  subjectField?: string;
  nameField?: string;
  clientId: string;
  clientSecret: string;
  scopes?: string[];
  fetch?: typeof fetch;
}

/**
 * A provider that speaks OAuth 2 but not OpenID Connect (GitHub): the authorization code
 * flow with PKCE, then the user endpoint says who signed in.
 */
export function oauth2Upstream(options: OAuth2UpstreamOptions): UpstreamProvider {
  const client: UpstreamClient = {
    as: {
      issuer: new URL(options.authorizationEndpoint).origin,
      authorization_endpoint: options.authorizationEndpoint,
      token_endpoint: options.tokenEndpoint,
      token_endpoint_auth_methods_supported: ["client_secret_post"],
    },
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    fetch: options.fetch,
  };
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function whoIs(accessToken: string): Promise<UpstreamIdentity> {
    const where = new URL(options.userEndpoint).host;
    let user: Record<string, unknown>;
    try {
      const response = await fetchImpl(options.userEndpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: "application/json", "user-agent": "mcpkit" },
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      user = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw new UpstreamError(`${where} did not say who signed in: ${(error as Error).message}`, { cause: error });
    }
    const subject = user[options.subjectField ?? "id"];
    if (typeof subject !== "string" && typeof subject !== "number")
      throw new UpstreamError(`${where} answered a user without "${options.subjectField ?? "id"}"`);
    const name = user[options.nameField ?? "login"];
    return {
      subject: String(subject),
      ...(typeof name === "string" && { name }),
      ...(typeof user.email === "string" && { email: user.email }),
    };
  }

  return {
    id: options.id,
    title: options.title,
    async begin({ redirectUri, state }) {
      const { url, verifier } = await authorizationUrl(client, {
        redirectUri,
        state,
        scope: (options.scopes ?? []).join(" "),
      });
      return { url, kept: { verifier } };
    },
    async finish(callback, kept, { redirectUri, state }) {
      const { tokens } = await exchangeCode(client, callback, { state, redirectUri, verifier: kept.verifier ?? "" });
      return { identity: await whoIs(tokens.accessToken), tokens };
    },
    refresh: (tokens) => refreshTokens(client, tokens),
  };
}
