import { InvalidTokenError } from "../types.js";
import { verifiedPayload } from "./access-token.js";
import type { Core } from "./core.js";
import { json, oauthError, readForm } from "./http.js";
import { hashSecret } from "./seal.js";
import { authenticatedClient } from "./token.js";

/**
 * Token revocation (RFC 7009): a refresh token or an access token of the authenticated
 * client ends its grant, so every token issued under it stops working. Unknown tokens,
 * and other clients' tokens, are answered 200 as well (§2.2), and left alone.
 */
export async function revoke(core: Core, request: Request): Promise<Response> {
  const form = await readForm(request);
  if (typeof form === "string") return oauthError(400, "invalid_request", form);
  const client = await authenticatedClient(core, request, form);
  if (client instanceof Response) return client;
  const token = form.get("token");
  if (!token) return oauthError(400, "invalid_request", "token is missing");

  let grantId = await core.store.grantOfRefresh(hashSecret(token));
  let owner = grantId ? (await core.store.grant(grantId))?.clientId : undefined;
  if (!grantId) {
    try {
      const payload = await verifiedPayload(core, token);
      if (typeof payload.grant_id === "string") grantId = payload.grant_id;
      if (typeof payload.client_id === "string") owner = payload.client_id;
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
    }
  }
  if (grantId && owner === client.client_id) await core.store.revokeGrant(grantId);
  return json(200, {}, { "cache-control": "no-store" });
}
