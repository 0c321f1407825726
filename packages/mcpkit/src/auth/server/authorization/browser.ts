import type { Core } from "./core.js";
import { cookie } from "./http.js";
import { hashSecret, newSecret, sameSecret } from "./seal.js";

/**
 * The browser a sign-in runs in, named by a cookie: a sign-in started in one browser can
 * be finished in that browser only, so a link to the provider's page sent to someone else
 * signs nobody in for the sender (login CSRF).
 */
export function browserOf(core: Core, request: Request): { id: string; setCookie?: string } {
  const present = cookie(request, core.cookie.name);
  if (present && /^[A-Za-z0-9_-]{43}$/.test(present)) return { id: present };
  const id = newSecret();
  return { id, setCookie: `${core.cookie.name}=${id}; ${core.cookie.attributes}` };
}

/** Whether this request comes from the browser whose cookie hashes to `hash`. */
export function sameBrowser(core: Core, request: Request, hash: string): boolean {
  const present = cookie(request, core.cookie.name);
  return present !== undefined && sameSecret(hashSecret(present), hash);
}
