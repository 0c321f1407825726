/**
 * WWW-Authenticate parsing and building (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1,
 * RFC 9449 §7.1): the Bearer and DPoP challenges' `resource_metadata`, `scope`, `error`
 * and `algs`. Shared by client and server.
 */

export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
}

/** One challenge of a WWW-Authenticate value: its scheme (lower case) and auth-params. */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

/** Every challenge in a header value, in order. A token68 credential form is skipped. */
export function parseChallenges(header: string | null): AuthChallenge[] {
  if (!header) return [];
  const challenges: AuthChallenge[] = [];
  // A token, then either `=` and a quoted string or token (an auth-param), or nothing (a scheme).
  const re = /[\s,]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?:\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*)))?/y;
  let m: RegExpExecArray | null = re.exec(header);
  while (m && m[0] !== "") {
    const [, name = "", quoted, plain] = m;
    if (quoted === undefined && plain === undefined) challenges.push({ scheme: name.toLowerCase(), params: {} });
    else {
      const current = challenges.at(-1);
      if (current)
        current.params[name.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : (plain as string);
    }
    m = re.exec(header);
  }
  return challenges;
}

const fields = (params: Record<string, string>): BearerChallenge => ({
  ...(params.resource_metadata && { resourceMetadata: params.resource_metadata }),
  ...(params.scope && { scope: params.scope }),
  ...(params.error && { error: params.error }),
  ...(params.error_description && { errorDescription: params.error_description }),
});

/** Reads every auth-param of the first Bearer challenge in a header value. */
export function parseBearerChallenge(header: string | null): BearerChallenge | undefined {
  const found = parseChallenges(header).find((c) => c.scheme === "bearer");
  return found && fields(found.params);
}

/**
 * The challenge a client acts on: the first Bearer or DPoP one (a DPoP-protected server
 * may name only DPoP), with its scheme.
 */
export function parseAuthChallenge(header: string | null): (BearerChallenge & { scheme: string }) | undefined {
  const found = parseChallenges(header).find((c) => c.scheme === "bearer" || c.scheme === "dpop");
  return found && { scheme: found.scheme, ...fields(found.params) };
}

const quote = (value: string) => `"${value.replace(/["\\]/g, "\\$&")}"`;

/** Builds one challenge: `Bearer` by default, `DPoP` (RFC 9449 §7.1, with its `algs`) on request. */
export function bearerChallenge(
  challenge: BearerChallenge,
  scheme: "Bearer" | "DPoP" = "Bearer",
  algs?: string[],
): string {
  const parts: string[] = [];
  if (challenge.error) parts.push(`error=${quote(challenge.error)}`);
  if (challenge.errorDescription) parts.push(`error_description=${quote(challenge.errorDescription)}`);
  if (challenge.scope) parts.push(`scope=${quote(challenge.scope)}`);
  if (challenge.resourceMetadata) parts.push(`resource_metadata=${quote(challenge.resourceMetadata)}`);
  if (algs && algs.length > 0) parts.push(`algs=${quote(algs.join(" "))}`);
  return parts.length > 0 ? `${scheme} ${parts.join(", ")}` : scheme;
}
