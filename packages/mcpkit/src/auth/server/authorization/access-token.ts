import { errors, type JWTPayload, jwtVerify, SignJWT } from "jose";
import { type AuthInfo, InvalidTokenError, scopesOf, type TokenVerifier, type UpstreamAccess } from "../types.js";
import { type Core, type GrantDetails, PURPOSE } from "./core.js";
import { SIGNING_ALGORITHM } from "./keys.js";
import { newId } from "./seal.js";
import type { UpstreamTokens } from "./upstream/types.js";

/** The claim naming the grant a token was issued under (so revoking the grant ends its tokens). */
const GRANT_CLAIM = "grant_id";

/**
 * A JWT access token (RFC 9068): `typ` at+jwt, signed by the current key, for one
 * resource (`aud`), naming the person (`sub`), the client, the scopes, the grant and, when
 * DPoP-bound, the key's thumbprint (`cnf.jkt`, RFC 9449 §6.1).
 */
export async function mintAccessToken(
  core: Core,
  grant: { id: string; clientId: string; subject: string },
  details: { resource: string; scopes: string[]; jkt?: string | undefined },
): Promise<string> {
  const { kid, key } = await core.keys.current();
  const now = Math.floor(core.now() / 1000);
  return new SignJWT({
    client_id: grant.clientId,
    scope: details.scopes.join(" "),
    [GRANT_CLAIM]: grant.id,
    ...(details.jkt && { cnf: { jkt: details.jkt } }),
  })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: "at+jwt" })
    .setIssuer(core.issuer)
    .setSubject(grant.subject)
    .setAudience(details.resource)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + core.ttl.accessSec)
    .setJti(newId())
    .sign(key);
}

/** The payload of a token this server signed, or why not (InvalidTokenError). */
export async function verifiedPayload(core: Core, token: string, audience?: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const key = await core.keys.find(header.kid);
        if (!key) throw new InvalidTokenError("The access token is signed with a key this server does not have");
        return key;
      },
      {
        issuer: core.issuer,
        ...(audience && { audience }),
        typ: "at+jwt",
        algorithms: [SIGNING_ALGORITHM],
        currentDate: new Date(core.now()),
        clockTolerance: 5,
      },
    );
    return payload;
  } catch (error) {
    if (error instanceof InvalidTokenError) throw error;
    if (error instanceof errors.JOSEError)
      throw new InvalidTokenError(`The access token is not valid here: ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * Checks the tokens this server issued, for one resource: signature by a live key, issuer,
 * audience, expiry, and that their grant has not been revoked. The caller's upstream
 * sign-in comes with them (`upstream`), for tools that call the provider's API.
 */
export function accessTokenVerifier(core: Core, resource: string): TokenVerifier {
  return async (token) => {
    const payload = await verifiedPayload(core, token, resource);
    const grantId = payload[GRANT_CLAIM];
    const grant = typeof grantId === "string" ? await core.store.grant(grantId) : undefined;
    if (!grant) throw new InvalidTokenError("The access token was revoked");
    const details = core.sealer.open<GrantDetails>(PURPOSE.grant, grant.sealed);
    const info: AuthInfo = {
      token,
      issuer: core.issuer,
      subject: String(payload.sub),
      clientId: String(payload.client_id),
      scopes: scopesOf(payload.scope),
      ...(typeof payload.exp === "number" && { expiresAt: payload.exp * 1000 }),
      claims: payload as Record<string, unknown>,
    };
    if (details?.upstream.tokens) info.upstream = upstreamAccess(core, grant.id, details.upstream);
    return info;
  };
}

/** Refreshes under way, per grant: concurrent tool calls share one refresh. */
const refreshing = new Map<string, Promise<UpstreamTokens>>();

/** The caller's upstream token, refreshed (and stored again, sealed) when it expires within a minute. */
function upstreamAccess(core: Core, grantId: string, part: GrantDetails["upstream"]): UpstreamAccess {
  return {
    provider: part.provider,
    subject: part.subject,
    ...(part.email !== undefined && { email: part.email }),
    ...(part.groups && { groups: part.groups }),
    async token() {
      const grant = await core.store.grant(grantId);
      const details = grant && core.sealer.open<GrantDetails>(PURPOSE.grant, grant.sealed);
      const tokens = details?.upstream.tokens;
      if (!details || !tokens) throw new InvalidTokenError("The sign-in behind this token has ended");
      const fresh = tokens.expiresAt === undefined || tokens.expiresAt - 60_000 > core.now();
      if (fresh || !tokens.refreshToken || !core.upstream.refresh) return tokens.accessToken;
      let pending = refreshing.get(grantId);
      if (!pending) {
        const refresh = core.upstream.refresh.bind(core.upstream);
        pending = (async () => {
          const next = await refresh(tokens);
          const updated: GrantDetails = { ...details, upstream: { ...details.upstream, tokens: next } };
          await core.store.updateGrant(grantId, core.sealer.seal(PURPOSE.grant, updated));
          return next;
        })().finally(() => refreshing.delete(grantId));
        refreshing.set(grantId, pending);
      }
      return (await pending).accessToken;
    },
  };
}
