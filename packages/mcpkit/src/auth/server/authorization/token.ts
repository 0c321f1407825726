import { createHash } from "node:crypto";
import { mintAccessToken } from "./access-token.js";
import { authenticates, type ClientRecord, presentedCredentials } from "./clients.js";
import { type CodeRecord, type Core, type GrantDetails, PURPOSE } from "./core.js";
import { findClient, UnknownClientError } from "./directory.js";
import { json, NO_STORE, oauthError, readForm } from "./http.js";
import { clientUsed } from "./pools.js";
import { hashSecret, newSecret } from "./seal.js";
import type { GrantRecord } from "./store.js";
import type { ProofOutcome } from "./token-dpop.js";

/** A code verifier (RFC 7636 §4.1): 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

type Bound = Exclude<ProofOutcome, { kind: "refused" }>;

/** The client a token or revocation request authenticates as, or the 400/401 answer. */
export async function authenticatedClient(core: Core, request: Request, form: URLSearchParams) {
  const presented = presentedCredentials(request, form);
  if (presented === undefined) return oauthError(401, "invalid_client", "Authenticate the client, or send client_id");
  if (typeof presented === "string") return oauthError(400, "invalid_request", presented);
  let client: ClientRecord;
  try {
    client = await findClient(core, presented.clientId);
  } catch (error) {
    if (error instanceof UnknownClientError) return oauthError(401, "invalid_client", error.message);
    throw error;
  }
  if (!authenticates(client, presented))
    return oauthError(
      401,
      "invalid_client",
      `The client did not authenticate as it registered (${client.token_endpoint_auth_method})`,
      presented.method === "client_secret_basic" ? { "www-authenticate": 'Basic realm="token"' } : {},
    );
  return client;
}

/**
 * The token endpoint (RFC 6749 §3.2): the authorization code grant (PKCE verified, code
 * used once: a replayed code revokes what it gave) and the refresh token grant (rotated
 * on every use: a spent refresh token revokes its whole family). Tokens are bound to the
 * DPoP key of a valid proof (RFC 9449 §5), and for the one resource of the grant (RFC 8707).
 */
export async function token(core: Core, request: Request): Promise<Response> {
  const form = await readForm(request);
  if (typeof form === "string") return oauthError(400, "invalid_request", form);
  const client = await authenticatedClient(core, request, form);
  if (client instanceof Response) return client;
  const proof: ProofOutcome = core.dpop ? await core.dpop.check(request) : { kind: "none" };
  if (proof.kind === "refused")
    return oauthError(400, proof.error, proof.description, proof.nonce ? { "dpop-nonce": proof.nonce } : {});
  const grantType = form.get("grant_type");
  if (!client.grant_types.includes(grantType ?? ""))
    return oauthError(
      400,
      grantType === "authorization_code" || grantType === "refresh_token"
        ? "unauthorized_client"
        : "unsupported_grant_type",
      grantType ? `The grant ${grantType} is not available to this client` : "grant_type is missing",
    );
  if (grantType === "authorization_code") return codeGrant(core, client, form, proof);
  if (grantType === "refresh_token") return refreshGrant(core, client, form, proof);
  return oauthError(400, "unsupported_grant_type", `The grant ${grantType} is not supported`);
}

async function codeGrant(core: Core, client: ClientRecord, form: URLSearchParams, proof: Bound): Promise<Response> {
  const code = form.get("code");
  if (!code) return oauthError(400, "invalid_request", "code is missing");
  const used = await core.store.consume("code", hashSecret(code));
  const record = used && core.sealer.open<CodeRecord>(PURPOSE.code, used.value);
  if (!used || !record || record.expiresAt <= core.now())
    return oauthError(400, "invalid_grant", "The code is unknown or expired");
  if (!used.first) {
    // RFC 6749 §4.1.2: a code used twice was intercepted; what it gave is revoked.
    await core.store.revokeGrant(record.grantId);
    return oauthError(400, "invalid_grant", "The code was used before; the tokens issued for it are revoked");
  }
  if (record.clientId !== client.client_id)
    return oauthError(400, "invalid_grant", "The code was issued to another client");
  if (form.get("redirect_uri") !== record.redirectUri)
    return oauthError(400, "invalid_grant", "redirect_uri differs from the authorization request's");
  const verifier = form.get("code_verifier");
  if (!verifier || !VERIFIER.test(verifier))
    return oauthError(400, "invalid_grant", "PKCE: send the code_verifier (43 to 128 characters)");
  if (createHash("sha256").update(verifier).digest("base64url") !== record.challenge)
    return oauthError(400, "invalid_grant", "PKCE: the code_verifier does not match the code_challenge");
  const resource = form.get("resource");
  if (resource !== null && resource !== record.resource)
    return oauthError(400, "invalid_target", `The code was issued for ${record.resource}, not ${resource}`);
  if (record.dpopJkt && (proof.kind !== "bound" || proof.jkt !== record.dpopJkt))
    return oauthError(400, "invalid_dpop_proof", "Redeem the code with a DPoP proof of the key named by dpop_jkt");

  const details: GrantDetails = {
    resource: record.resource,
    scopes: record.scopes,
    ...(proof.kind === "bound" && { jkt: proof.jkt }),
    upstream: record.upstream,
  };
  const grant: GrantRecord = {
    id: record.grantId,
    clientId: client.client_id,
    subject: record.subject,
    expiresAt: core.now() + core.ttl.refreshMs,
    sealed: core.sealer.seal(PURPOSE.grant, details),
  };
  const refresh = newSecret();
  await clientUsed(core, client, record.subject);
  await core.store.createGrant(grant, hashSecret(refresh));
  return issued(core, client, grant, details, details.scopes, refresh);
}

async function refreshGrant(core: Core, client: ClientRecord, form: URLSearchParams, proof: Bound): Promise<Response> {
  const presented = form.get("refresh_token");
  if (!presented) return oauthError(400, "invalid_request", "refresh_token is missing");
  const hash = hashSecret(presented);
  // Everything is checked before the token is spent: a stolen token sent by another client is not rotated.
  const grantId = await core.store.grantOfRefresh(hash);
  const grant = grantId ? await core.store.grant(grantId) : undefined;
  const details = grant && core.sealer.open<GrantDetails>(PURPOSE.grant, grant.sealed);
  if (!grant || !details) return oauthError(400, "invalid_grant", "The refresh token is unknown, expired or revoked");
  if (grant.clientId !== client.client_id)
    return oauthError(400, "invalid_grant", "The refresh token was issued to another client");
  if (details.jkt && (proof.kind !== "bound" || proof.jkt !== details.jkt))
    return oauthError(400, "invalid_dpop_proof", "This refresh token is bound to a DPoP key: send a proof of it");
  const resource = form.get("resource");
  if (resource !== null && resource !== details.resource)
    return oauthError(400, "invalid_target", `The grant is for ${details.resource}, not ${resource}`);
  const asked = form.get("scope");
  const scopes = asked === null ? details.scopes : [...new Set(asked.split(" ").filter(Boolean))];
  const beyond = scopes.filter((s) => !details.scopes.includes(s));
  if (beyond.length > 0) return oauthError(400, "invalid_scope", `The grant does not include ${beyond.join(" ")}`);

  const next = newSecret();
  const rotation = await core.store.rotateRefresh(hash, hashSecret(next));
  if (rotation.status === "reused") {
    core.onError(
      new Error(
        `A spent refresh token of client ${client.client_id} was presented again: every token of that grant is revoked`,
      ),
    );
    return oauthError(400, "invalid_grant", "The refresh token was used before; every token of this grant is revoked");
  }
  if (rotation.status !== "rotated")
    return oauthError(400, "invalid_grant", "The refresh token is unknown, expired or revoked");
  return issued(core, client, rotation.grant, details, scopes, next);
}

async function issued(
  core: Core,
  client: ClientRecord,
  grant: GrantRecord,
  details: GrantDetails,
  scopes: string[],
  refresh: string,
): Promise<Response> {
  const accessToken = await mintAccessToken(core, grant, { resource: details.resource, scopes, jkt: details.jkt });
  return json(
    200,
    {
      access_token: accessToken,
      token_type: details.jkt ? "DPoP" : "Bearer",
      expires_in: core.ttl.accessSec,
      ...(client.grant_types.includes("refresh_token") && { refresh_token: refresh }),
      scope: scopes.join(" "),
    },
    NO_STORE,
  );
}
