import type { Core } from "./core.js";
import { redirect } from "./http.js";

/**
 * The authorization response (RFC 6749 §4.1.2, §4.1.2.1): to the client's checked redirect
 * URI, with `state` as sent and `iss` (RFC 9207), for a code or an error alike. Sent only
 * once the person decided on the consent page (consent.ts).
 */
export function backToClient(
  core: Core,
  to: { redirectUri: string; state?: string | undefined },
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Response {
  const url = new URL(to.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (to.state !== undefined) url.searchParams.set("state", to.state);
  url.searchParams.set("iss", core.issuer);
  return redirect(url.href, headers);
}

/** An error sent back to the client. */
export const errorToClient = (
  core: Core,
  to: { redirectUri: string; state?: string | undefined },
  error: string,
  description: string,
  headers: Record<string, string> = {},
) => backToClient(core, to, { error, error_description: description }, headers);
