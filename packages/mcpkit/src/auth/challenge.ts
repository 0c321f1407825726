/**
 * WWW-Authenticate parsing (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1): the Bearer
 * challenge's `resource_metadata`, `scope` and `error`. Shared by client and server tests.
 */

export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

/** Reads every auth-param of the first Bearer challenge in a header value. */
export function parseBearerChallenge(header: string | null): BearerChallenge | undefined {
  if (!header) return undefined;
  const at = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (at === -1) return undefined;
  const rest = header.slice(at).replace(/^[\s,]*Bearer/i, "");
  const params: Record<string, string> = {};
  // name=token or name="quoted \"string\""; a following scheme name ends the challenge.
  const re = /\s*,?\s*([A-Za-z0-9_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/y;
  let m: RegExpExecArray | null = re.exec(rest);
  while (m) {
    params[(m[1] as string).toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] as string);
    m = re.exec(rest);
  }
  const challenge: BearerChallenge = {};
  if (params.resource_metadata) challenge.resourceMetadata = params.resource_metadata;
  if (params.scope) challenge.scope = params.scope;
  if (params.error) challenge.error = params.error;
  if (params.error_description) challenge.errorDescription = params.error_description;
  return challenge;
}

const quote = (value: string) => `"${value.replace(/["\\]/g, "\\$&")}"`;

/** Builds a Bearer challenge header value. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const parts: string[] = [];
  if (challenge.error) parts.push(`error=${quote(challenge.error)}`);
  if (challenge.errorDescription) parts.push(`error_description=${quote(challenge.errorDescription)}`);
  if (challenge.scope) parts.push(`scope=${quote(challenge.scope)}`);
  if (challenge.resourceMetadata) parts.push(`resource_metadata=${quote(challenge.resourceMetadata)}`);
  return parts.length > 0 ? `Bearer ${parts.join(", ")}` : "Bearer";
}
