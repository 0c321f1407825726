import type { Core } from "./core.js";
import { cookie } from "./http.js";
import { hashSecret, newSecret, sameSecret } from "./seal.js";

/** One cookie a sign-in, so that two sign-ins in one browser (two applications at once) do not displace each other. */
const cookieName = (core: Core, id: string) => `${core.cookie.name}-${id}`;

/**
 * Binds sign-in `id` to the browser it runs in: a new secret in a cookie, whose hash the
 * sign-in keeps, so that it continues in that browser only (a link to the provider's page
 * sent to someone else signs nobody in for the sender: login CSRF). Always a secret of the
 * server's, never a value the browser brought, which someone else may have chosen (session
 * fixation): issued when the sign-in starts, and anew once the person signed in upstream.
 */
export function bindBrowser(core: Core, id: string): { setCookie: string; hash: string } {
  const secret = newSecret();
  return { setCookie: `${cookieName(core, id)}=${secret}; ${core.cookie.attributes}`, hash: hashSecret(secret) };
}

/** Whether this request comes from the browser sign-in `id` is bound to (its cookie hashes to `hash`). */
export function sameBrowser(core: Core, request: Request, id: string, hash: string): boolean {
  const present = cookie(request, cookieName(core, id));
  return present !== undefined && sameSecret(hashSecret(present), hash);
}

/** The Set-Cookie that removes sign-in `id`'s cookie once it ended. */
export const forgetBrowser = (core: Core, id: string) =>
  `${cookieName(core, id)}=; ${core.cookie.attributes.replace(/Max-Age=\d+/, "Max-Age=0")}`;
