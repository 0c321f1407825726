import { bindBrowser } from "./browser.js";
import { showConsent } from "./consent.js";
import { type Core, PURPOSE, type SignIn } from "./core.js";
import { findClient, UnknownClientError } from "./directory.js";
import { redirect, single } from "./http.js";
import { errorPage } from "./pages.js";
import { startSignIn } from "./pools.js";
import { redirectAllowed, redirectUriProblem } from "./redirect-uris.js";
import { newId } from "./seal.js";
import { UpstreamError } from "./upstream/types.js";

/** An S256 code challenge: base64url of a SHA-256, 43 characters (RFC 7636 §4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The resource as configured, when `requested` names one of them (compared as URLs, so a trailing slash on a bare origin does not matter). */
export function knownResource(core: Core, requested: string): string | undefined {
  const same = (a: string, b: string) => {
    try {
      return new URL(a).href === new URL(b).href;
    } catch {
      return false;
    }
  };
  return core.resources().find((r) => r === requested || same(r, requested));
}

/** The longest `state` kept for a client: far beyond the random value clients send, short enough to keep. */
const MAX_STATE = 2048;

/**
 * The authorization endpoint (RFC 6749 §4.1.1 with OAuth 2.1's PKCE, RFC 8707 resources,
 * RFC 9207 `iss`). Nothing here is sent to the client's redirect URI: whatever is wrong with
 * the request is said on a page, for no redirect may be made before the request is valid and
 * the person has signed in and decided (RFC 9700 §4.11.2: else the server is an open
 * redirector to any URI a client registered). A valid request sends the person to the
 * upstream provider to sign in (or, with the development provider, straight to consent).
 */
export async function authorize(core: Core, request: Request, caller: string | undefined): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const clientId = single(params, "client_id");
  if (!clientId) return errorPage("Cannot sign in", "The application's request names no client (client_id).");
  let client: Awaited<ReturnType<typeof findClient>>;
  try {
    client = await findClient(core, clientId);
  } catch (error) {
    if (error instanceof UnknownClientError) return errorPage("Unknown application", error.message);
    throw error;
  }
  const asked = single(params, "redirect_uri");
  const redirectUri = asked ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (asked === null || !redirectUri || !redirectAllowed(client, redirectUri))
    return errorPage(
      "Cannot sign in",
      "The application asked to return to an address it did not register (redirect_uri); nothing was sent to it.",
    );
  // A client kept from before today's rules (or a cached document) is held to them as well; configured ones are the operator's.
  const problem = client.source === "configuration" ? undefined : redirectUriProblem(redirectUri, core.appSchemes);
  if (problem) return errorPage("Cannot sign in", `The application's address is not allowed: ${problem}.`);
  const refuse = (error: string, description: string) =>
    errorPage(
      "Cannot sign in",
      `The application's request cannot be served: ${description} (${error}). Nothing was sent back to it; start again from the application.`,
    );
  const state = single(params, "state");
  if (state === null) return refuse("invalid_request", "state is repeated");
  if (state && state.length > MAX_STATE)
    return refuse("invalid_request", `state is longer than ${MAX_STATE} characters`);

  if (single(params, "response_type") !== "code")
    return refuse("unsupported_response_type", 'only response_type "code" is supported');
  // OAuth 2.1 §7.5.1 and basic/authorization §Authorization Code Protection: PKCE, S256 only.
  const method = single(params, "code_challenge_method");
  const challenge = single(params, "code_challenge");
  if (!challenge || method === undefined)
    return refuse("invalid_request", "PKCE is required: send code_challenge and code_challenge_method=S256");
  if (method !== "S256") return refuse("invalid_request", "only the S256 code_challenge_method is accepted");
  if (!S256_CHALLENGE.test(challenge)) return refuse("invalid_request", "code_challenge is not an S256 challenge");
  if (!client.grant_types.includes("authorization_code"))
    return refuse("unauthorized_client", "this client did not register the authorization_code grant");

  // RFC 8707 §2: the resource the token will be for; one of this server's.
  const resources = params.getAll("resource").filter(Boolean);
  if (resources.length > 1) return refuse("invalid_target", "ask for one resource at a time");
  const configured = core.resources();
  const requested = resources[0] ?? (configured.length === 1 ? configured[0] : undefined);
  const resource = requested && knownResource(core, requested);
  if (!resource)
    return refuse(
      "invalid_target",
      requested ? `this server issues no tokens for ${requested}` : "name the resource (RFC 8707 resource parameter)",
    );

  const scopes = [...new Set((single(params, "scope") ?? "").split(" ").filter(Boolean))];
  const unknown = scopes.filter((s) => !core.scopes.includes(s));
  if (unknown.length > 0) return refuse("invalid_scope", `unknown scope ${unknown.join(" ")}`);
  const dpopJkt = single(params, "dpop_jkt");
  if (dpopJkt === null || (dpopJkt && !S256_CHALLENGE.test(dpopJkt)))
    return refuse("invalid_request", "dpop_jkt is not a JWK thumbprint");

  const id = newId();
  const browser = bindBrowser(core, id);
  const signIn: SignIn = {
    clientId: client.client_id,
    redirectUri,
    ...(state && { state }),
    challenge,
    resource,
    scopes,
    ...(dpopJkt && { dpopJkt }),
    browser: browser.hash,
    expiresAt: core.now() + core.ttl.signInMs,
  };
  let start: Awaited<ReturnType<Core["upstream"]["begin"]>>;
  try {
    start = await core.upstream.begin({ redirectUri: core.endpoints.callback, state: id });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    core.onError(error);
    return errorPage(
      "Cannot sign in now",
      `Signing in at ${core.upstream.title} cannot start now; try again later.`,
      502,
    );
  }
  await startSignIn(core, id, caller);
  const headers = { "set-cookie": browser.setCookie };
  if (!start.url) {
    if (!start.identity) throw new Error(`The upstream provider ${core.upstream.id} gave neither a URL nor a person`);
    return showConsent(core, client, id, { ...signIn, identity: start.identity }, headers);
  }
  await core.store.put(
    "request",
    id,
    core.sealer.seal(PURPOSE.signIn, { ...signIn, kept: start.kept }),
    core.ttl.signInMs,
  );
  return redirect(start.url.href, headers);
}
