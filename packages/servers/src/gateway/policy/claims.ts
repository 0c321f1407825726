import type { AuthInfo } from "mcpkit/auth";

/** What a policy may decide on: the principal's claims, from its verified token and its sign-in. */
export interface Claims {
  signedIn: boolean;
  subject?: string;
  issuer?: string;
  groups: readonly string[];
  scopes: readonly string[];
  /** Lower case; absent when the token says it is not verified. */
  email?: string;
}

const NOBODY: Claims = { signedIn: false, groups: [], scopes: [] };

/** The same token object gives the same claims: a list runs the policy once per entry. */
const cache = new WeakMap<object, Claims>();

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string")
    : typeof value === "string"
      ? value.split(/[\s,]+/).filter(Boolean)
      : [];

/**
 * The claims of a verified token (`ctx.auth`, a viewer's `auth`): subject, issuer, scopes,
 * and the groups and email its claims name (`groups`, `email` unless `email_verified` is
 * false) or mcpkit's authorization server learnt from the identity provider at sign-in.
 * No token: nobody signed in.
 */
export function claimsOf(auth: unknown): Claims {
  if (typeof auth !== "object" || auth === null) return NOBODY;
  const known = cache.get(auth);
  if (known) return known;
  const info = auth as Partial<AuthInfo>;
  const claims = (info.claims ?? {}) as Record<string, unknown>;
  const upstream = info.upstream;
  const email =
    typeof claims.email === "string" && claims.email_verified !== false
      ? claims.email
      : typeof upstream?.email === "string"
        ? upstream.email
        : undefined;
  const made: Claims = {
    signedIn: true,
    ...(info.subject !== undefined && { subject: info.subject }),
    ...(info.issuer !== undefined && { issuer: info.issuer }),
    groups: [...new Set([...strings(claims.groups), ...strings(upstream?.groups)])],
    scopes: info.scopes ?? [],
    ...(email !== undefined && { email: email.toLowerCase() }),
  };
  cache.set(auth, made);
  return made;
}
