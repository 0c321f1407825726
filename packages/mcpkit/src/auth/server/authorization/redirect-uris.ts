import { isLoopbackUrl } from "../../../transports/http/localhost.js";
import type { ClientRecord } from "./clients.js";

/**
 * A private-use scheme of a native app in reverse-domain form (RFC 8252 §7.1): a top-level
 * domain (letters only) then one label or more, `com.example.app`. Every other scheme a
 * browser or an operating system hands to a program (`ms-msdt:`, `search-ms:`,
 * `view-source:`, `jar:`, `javascript:`, `data:`, `file:`…) has no such name, so an
 * allow-list of this shape leaves them all out.
 */
const REVERSE_DOMAIN = /^[a-z]{2,63}(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * MCP clients that register a dotless private-use scheme (Cursor registers
 * `cursor://anysphere.cursor-mcp/oauth/callback` beside its https and loopback ones, in one
 * registration): accepted by default, as PKCE binds the code to the client that asked.
 */
export const DEFAULT_APP_SCHEMES: readonly string[] = ["cursor", "vscode", "vscode-insiders"];

/**
 * Schemes an operating system or a browser hands to a program or a view of its own: never a
 * redirect target, even when an operator lists them (`ms-msdt:` ran a program). Windows
 * names some of its own in reverse-domain form under its own top-level domains
 * (`microsoft.windows.camera:`, `windows.immersivecontrolpanel:`), which the shape above
 * would admit; Apple's `itms-services:` installs an app.
 */
const NEVER =
  /^(javascript|data|file|filesystem|blob|about|jar|view-source|vbscript|ms-[a-z-]*|search-ms|search|shell|res|mk|its|mhtml|intent|x-apple[a-z.-]*|itms[a-z-]*|microsoft\.[a-z0-9.-]*|windows\.[a-z0-9.-]*|smb|ftp|ldap|telnet|ssh|mailto|tel|sms|chrome[a-z-]*|edge|opera|resource|moz-[a-z-]*)$/;

/** The operator's list of schemes (AuthorizationServerOptions.appSchemes), checked once. */
export function appSchemes(list: readonly string[] = DEFAULT_APP_SCHEMES): ReadonlySet<string> {
  for (const scheme of list) {
    if (!/^[a-z][a-z0-9+.-]*$/.test(scheme))
      throw new TypeError(`appSchemes: "${scheme}" is not a URI scheme (lower-case letters, digits, +, . and -)`);
    if (NEVER.test(scheme) || scheme === "http" || scheme === "https")
      throw new TypeError(`appSchemes: "${scheme}:" cannot be a private-use redirect scheme`);
  }
  return new Set(list);
}

/** Userinfo in the authority (`https://good.example@evil.example/`): refused, it only misleads a reader. */
const USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

/** What no URI holds unencoded; URL parsers disagree on them (a backslash is a slash to a browser). */
const UNENCODED = /[\\\s\p{Cc}]/u;

/**
 * Why a redirect URI cannot be registered (at /register, or in a client ID metadata
 * document), or undefined when it can. An allow-list: https; http to this machine only
 * (127.0.0.1, [::1], localhost; any port, RFC 8252 §7.3); a native app's private-use scheme
 * in reverse-domain form (RFC 8252 §7.1), or one of `allowed` (the operator's appSchemes).
 * Never a fragment (RFC 6749 §3.1.2) or userinfo.
 */
export function redirectUriProblem(value: unknown, allowed: ReadonlySet<string> = new Set()): string | undefined {
  if (typeof value !== "string" || value.length > 2000)
    return "a redirect URI must be a string of at most 2000 characters";
  if (UNENCODED.test(value)) return `${JSON.stringify(value)} holds a space, backslash or control character`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${value} is not an absolute URI`;
  }
  if (value.includes("#")) return `${value} has a fragment`;
  if (USERINFO.test(value) || url.username || url.password) return `${value} has userinfo (a name before @)`;
  const scheme = url.protocol.slice(0, -1);
  if (scheme === "https") return url.hostname ? undefined : `${value} names no host`;
  if (scheme === "http")
    return isLoopbackUrl(value)
      ? undefined
      : `${value} is http but not to this machine: use https (http only to 127.0.0.1, [::1] or localhost)`;
  if ((REVERSE_DOMAIN.test(scheme) || allowed.has(scheme)) && !NEVER.test(scheme)) return undefined;
  return `${value} uses the ${scheme}: scheme: a redirect URI is https, http to 127.0.0.1, [::1] or localhost, or a native app's scheme in reverse-domain form (com.example.app:/callback)`;
}

/**
 * Whether `requested` is one of the client's redirect URIs: exactly, or, for a loopback
 * http URI, the same but for the port, which a native app picks when it runs (RFC 8252 §7.3).
 */
export function redirectAllowed(client: ClientRecord, requested: string): boolean {
  if (client.redirect_uris.includes(requested)) return true;
  if (!requested.startsWith("http://") || !isLoopbackUrl(requested)) return false;
  const portless = (value: string) => {
    const url = new URL(value);
    url.port = "";
    return url.href;
  };
  let wanted: string;
  try {
    wanted = portless(requested);
  } catch {
    return false;
  }
  return client.redirect_uris.some(
    (uri) => uri.startsWith("http://") && isLoopbackUrl(uri) && portless(uri) === wanted,
  );
}
