import { CLIENT_AUTH_METHODS } from "./clients.js";
import type { Core } from "./core.js";

/** RFC 8414 §2: what this authorization server offers, as MCP clients look for it. */
export function metadataDocument(core: Core): Record<string, unknown> {
  const e = core.endpoints;
  return {
    issuer: core.issuer,
    authorization_endpoint: e.authorization,
    token_endpoint: e.token,
    ...(e.registration && { registration_endpoint: e.registration }),
    revocation_endpoint: e.revocation,
    jwks_uri: e.jwks,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    scopes_supported: core.scopes,
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: core.clientMetadata !== undefined,
    ...(core.dpop && { dpop_signing_alg_values_supported: core.dpop.algorithms }),
  };
}
