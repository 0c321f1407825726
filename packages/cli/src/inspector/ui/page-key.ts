import { KEY_HEADER } from "../contract/operations.js";

/**
 * The page's key to the inspector's API (../guard.ts): the token exchange sends the browser
 * to `/#key=…`; the key moves from the fragment to this tab's session storage at once and
 * leaves the address bar. Session storage belongs to this origin, port included, unlike
 * the cookie, which every port of 127.0.0.1 receives: a page or a server elsewhere never
 * holds the key.
 */

const STORAGE = "mcpkit-inspector-key";

function take(): string | undefined {
  const given = /^#key=([\w-]+)$/.exec(location.hash)?.[1];
  if (given) {
    sessionStorage.setItem(STORAGE, given);
    history.replaceState(null, "", location.pathname);
  }
  return sessionStorage.getItem(STORAGE) ?? undefined;
}

/** Read when this module loads, before anything reads the fragment as a view's name. */
const key = take();

/** The headers every API request carries. */
export const keyHeaders = (): Record<string, string> => (key ? { [KEY_HEADER]: key } : {});
