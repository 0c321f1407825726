import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";
import { exchangeCode, type GrantContext } from "./grants.js";
import { clientFor, forgetClient, type RegistrationOptions } from "./registration.js";
import type { RedirectHandler, StoredTokens } from "./types.js";

/** A sign-in through the authorization code flow, ready to start: where to send the user, and how it ends. */
export interface CodeSignIn {
  /** The authorization URL, with the PKCE challenge, the state and the resource. */
  readonly url: URL;
  /** Sends the user there (`redirect`), checks what came back and exchanges the code: the tokens. */
  signIn(redirect: RedirectHandler): Promise<StoredTokens>;
}

/**
 * Prepares the authorization code flow (authorization §Authorization Code Protection): the
 * server must support PKCE with S256 and have an authorization endpoint, and this client a
 * registration there (registration.ts). What fails here fails before any sign-in starts.
 */
export async function prepareCodeSignIn(
  ctx: GrantContext,
  scope: string | undefined,
  registration: RegistrationOptions & { redirectUri: string },
): Promise<CodeSignIn> {
  const { as } = ctx;
  const { redirectUri, storage } = registration;
  // authorization §Authorization Code Protection: PKCE S256, checked against the metadata.
  if (!as.code_challenge_methods_supported?.includes("S256")) {
    throw new OAuthError(
      "pkce_unsupported",
      `The authorization server ${as.issuer} does not support PKCE with S256; refusing to authorize`,
    );
  }
  if (!as.authorization_endpoint) throw new OAuthError("no_metadata", `${as.issuer} has no authorization endpoint`);
  const client = await clientFor(as, { ...registration, scope });
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("resource", ctx.resource);
  if (scope) url.searchParams.set("scope", scope);

  return {
    url,
    async signIn(redirect) {
      const returned = await redirect(url);
      const params =
        returned instanceof URLSearchParams
          ? returned
          : new URL(typeof returned === "string" ? returned : returned.href, redirectUri).searchParams;
      let callback: URLSearchParams;
      try {
        // Checks state, the error parameter and `iss` against the issuer (RFC 9207).
        callback = oauth.validateAuthResponse(as, { client_id: client.client_id }, params, state);
      } catch (error) {
        // RFC 6749 §4.1.2.1: the authorization server sent an error back (access_denied…), said as it came.
        const message =
          error instanceof oauth.AuthorizationResponseError
            ? `The authorization server answered ${error.error}${error.error_description ? `: ${error.error_description}` : ""}`
            : `The authorization response was refused: ${(error as Error).message}`;
        throw new OAuthError("authorization_failed", message, { cause: error });
      }
      try {
        return await exchangeCode(ctx, client, callback, redirectUri, verifier);
      } catch (error) {
        // A registration the server no longer knows is dropped, so the next attempt registers again.
        if (/invalid_client/.test(String((error as Error).message))) await forgetClient(storage, as.issuer);
        throw error;
      }
    },
  };
}
