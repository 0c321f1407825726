import { CLIENT_AUTH_METHODS, type ClientAuthMethod, type ClientRecord } from "./clients.js";
import { json, readBody } from "./http.js";
import { redirectUriProblem } from "./redirect-uris.js";
import { hashSecret, newId, newSecret } from "./seal.js";

const GRANTS = ["authorization_code", "refresh_token"];
const MAX_REDIRECT_CHARACTERS = 4000;

/**
 * Dynamic Client Registration (RFC 7591 §3): checks the metadata, stores the client and
 * answers its id (and a secret, for a confidential client). Unsupported values are
 * refused with invalid_client_metadata or invalid_redirect_uri, saying which.
 */
export async function register(
  request: Request,
  save: (client: ClientRecord) => Promise<void>,
  now: () => number,
  appSchemes: ReadonlySet<string>,
): Promise<Response> {
  const refuse = (error: string, description: string) =>
    json(400, { error, error_description: description }, { "cache-control": "no-store" });
  const text = await readBody(request, 16 * 1024);
  if (text === undefined) return refuse("invalid_client_metadata", "The registration is larger than 16 KiB");
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(text);
  } catch {
    return refuse("invalid_client_metadata", "The registration must be a JSON object");
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
    return refuse("invalid_client_metadata", "The registration must be a JSON object");
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 20)
    return refuse("invalid_redirect_uri", "redirect_uris must list 1 to 20 URIs");
  for (const uri of uris) {
    const problem = redirectUriProblem(uri, appSchemes);
    if (problem) return refuse("invalid_redirect_uri", problem);
  }
  // What a registration keeps is bounded, so that the registrations kept are (pools.ts).
  if (uris.join("").length > MAX_REDIRECT_CHARACTERS)
    return refuse(
      "invalid_redirect_uri",
      `redirect_uris hold more than ${MAX_REDIRECT_CHARACTERS} characters together`,
    );
  const method = (metadata.token_endpoint_auth_method ?? "client_secret_basic") as ClientAuthMethod;
  if (!CLIENT_AUTH_METHODS.includes(method))
    return refuse(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(", ")}, not ${String(method)}`,
    );
  const grants = metadata.grant_types ?? GRANTS;
  if (!Array.isArray(grants) || grants.some((g) => !GRANTS.includes(g)))
    return refuse("invalid_client_metadata", `grant_types may list ${GRANTS.join(" and ")} only`);
  const responses = metadata.response_types ?? ["code"];
  if (!Array.isArray(responses) || responses.some((r) => r !== "code"))
    return refuse("invalid_client_metadata", 'response_types may list "code" only');
  const name = typeof metadata.client_name === "string" ? metadata.client_name.slice(0, 200) : undefined;

  const secret = method === "none" ? undefined : newSecret();
  const client: ClientRecord = {
    client_id: newId(),
    ...(name && { client_name: name }),
    redirect_uris: uris as string[],
    token_endpoint_auth_method: method,
    // Each once: 800 repeats fit the 16 KiB a registration may be, and would be kept.
    grant_types: [...new Set(grants as string[])],
    ...(secret && { secret_hash: hashSecret(secret) }),
    source: "registration",
  };
  await save(client);
  return json(
    201,
    {
      client_id: client.client_id,
      client_id_issued_at: Math.floor(now() / 1000),
      ...(secret && { client_secret: secret, client_secret_expires_at: 0 }),
      ...(name && { client_name: name }),
      redirect_uris: client.redirect_uris,
      token_endpoint_auth_method: method,
      grant_types: client.grant_types,
      response_types: ["code"],
    },
    { "cache-control": "no-store" },
  );
}
