import { hashSecret, sameSecret } from "./seal.js";

export type ClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post";
export const CLIENT_AUTH_METHODS: ClientAuthMethod[] = ["none", "client_secret_basic", "client_secret_post"];

/** A client the server knows: registered (RFC 7591), published (a client ID metadata document) or configured. */
export interface ClientRecord {
  client_id: string;
  client_name?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  grant_types: string[];
  /** SHA-256 of the client secret, for confidential clients. */
  secret_hash?: string;
  source: "registration" | "metadata-document" | "configuration";
}

/** A client configured up front (createAuthorizationServer's `clients`). */
export interface StaticClient {
  client_id: string;
  /** For a confidential client; it then authenticates with client_secret_basic (or `token_endpoint_auth_method`). */
  client_secret?: string;
  client_name?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: ClientAuthMethod;
}

export function staticClient(client: StaticClient): ClientRecord {
  return {
    client_id: client.client_id,
    ...(client.client_name && { client_name: client.client_name }),
    redirect_uris: client.redirect_uris,
    token_endpoint_auth_method:
      client.token_endpoint_auth_method ?? (client.client_secret ? "client_secret_basic" : "none"),
    grant_types: ["authorization_code", "refresh_token"],
    ...(client.client_secret && { secret_hash: hashSecret(client.client_secret) }),
    source: "configuration",
  };
}

/** The credentials a token or revocation request presents (RFC 6749 §2.3.1): Basic, or in the form. */
export function presentedCredentials(
  request: Request,
  form: URLSearchParams,
): { clientId: string; secret?: string; method: ClientAuthMethod } | string | undefined {
  const header = request.headers.get("authorization");
  if (header && /^basic\s/i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return "The Basic credentials are malformed";
    const decode = (v: string) => {
      try {
        return decodeURIComponent(v.replace(/\+/g, " "));
      } catch {
        return undefined;
      }
    };
    const clientId = decode(decoded.slice(0, colon));
    const secret = decode(decoded.slice(colon + 1));
    if (!clientId || secret === undefined) return "The Basic credentials are malformed";
    if (form.has("client_secret")) return "Use one way of authenticating the client, not two";
    if (form.has("client_id") && form.get("client_id") !== clientId)
      return "client_id differs from the Basic credentials";
    return { clientId, secret, method: "client_secret_basic" };
  }
  const clientId = form.get("client_id");
  if (!clientId) return undefined;
  const secret = form.get("client_secret");
  return secret ? { clientId, secret, method: "client_secret_post" } : { clientId, method: "none" };
}

/** Whether the presented credentials authenticate this client, by the method it registered. */
export function authenticates(client: ClientRecord, presented: { secret?: string; method: ClientAuthMethod }): boolean {
  if (client.token_endpoint_auth_method === "none") return presented.method === "none";
  if (presented.method !== client.token_endpoint_auth_method || !presented.secret || !client.secret_hash) return false;
  return sameSecret(hashSecret(presented.secret), client.secret_hash);
}
