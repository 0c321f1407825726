import type { PolicyRule, PrincipalMatch, RateConfig } from "../config/types.js";
import { matches } from "../naming.js";
import type { Claims } from "./claims.js";

/**
 * What a policy decides about: one upstream's tool or prompt (by its upstream name, so
 * a rename or a virtual server never changes the decision), or its resources.
 */
export type Target = { server: string; kind: "tool" | "prompt"; name: string } | { server: string; kind: "resource" };

export interface Policy {
  /** False when the configuration has no policy: everyone may use everything. */
  readonly active: boolean;
  allows(claims: Claims, target: Target): boolean;
  /** The rate the first rule matching the principal gives, if one does. */
  rateFor(claims: Claims): RateConfig | undefined;
}

const EVERYONE: Policy = { active: false, allows: () => true, rateFor: () => undefined };

/**
 * The policy of the configuration's rules. Once there is one, what no rule allows is
 * refused (default deny), and a deny of any matching rule wins over every allow. A rule
 * applies to a principal when each condition of its `when` holds (a list holds when any of
 * its values does); a rule without conditions applies to everyone, signed in or not.
 */
export function compilePolicy(rules: readonly PolicyRule[] | undefined): Policy {
  if (!rules) return EVERYONE;
  const decisions = new WeakMap<Claims, Map<string, boolean>>();
  return {
    active: true,
    allows(claims, target) {
      let known = decisions.get(claims);
      if (!known) {
        known = new Map();
        decisions.set(claims, known);
      }
      const key =
        target.kind === "resource" ? `${target.server}\0` : `${target.server}\0${target.kind}\0${target.name}`;
      let allowed = known.get(key);
      if (allowed === undefined) {
        allowed = decide(rules, claims, target);
        known.set(key, allowed);
      }
      return allowed;
    },
    rateFor: (claims) => rules.find((r) => r.rateLimit && applies(r.when, claims))?.rateLimit,
  };
}

function decide(rules: readonly PolicyRule[], claims: Claims, target: Target): boolean {
  let allowed = false;
  for (const rule of rules) {
    if (!applies(rule.when, claims)) continue;
    if (rule.deny.some((p) => covers(p, target))) return false;
    if (rule.allow.some((p) => covers(p, target))) allowed = true;
  }
  return allowed;
}

/**
 * Whether a pattern covers the target: `*` and `server` (or `server/*`) everything of a
 * server, resources included; `server/name` one tool or prompt (`*` inside the name
 * matching any characters), never resources.
 */
export function covers(pattern: string, target: Target): boolean {
  if (pattern === "*" || pattern === "*/*") return true;
  const slash = pattern.indexOf("/");
  const server = slash < 0 ? pattern : pattern.slice(0, slash);
  if (!matches(server, target.server)) return false;
  const name = slash < 0 ? "*" : pattern.slice(slash + 1);
  if (name === "*") return true;
  return target.kind !== "resource" && matches(name, target.name);
}

/** Whether every condition given holds for the claims. */
export function applies(when: PrincipalMatch, claims: Claims): boolean {
  if (when.signedIn !== undefined && when.signedIn !== claims.signedIn) return false;
  const one = (values: string[] | undefined, value: string | undefined) =>
    values === undefined || (value !== undefined && values.some((v) => matches(v, value)));
  const any = (values: string[] | undefined, held: readonly string[]) =>
    values === undefined || values.some((v) => held.some((h) => matches(v, h)));
  if (!one(when.subject, claims.subject) || !one(when.issuer, claims.issuer)) return false;
  if (!any(when.groups, claims.groups) || !any(when.scopes, claims.scopes)) return false;
  const email = claims.email;
  if (when.email !== undefined && !(email !== undefined && when.email.some((e) => e.toLowerCase() === email)))
    return false;
  if (when.emailDomain !== undefined) {
    const domain = email?.slice(email.lastIndexOf("@") + 1);
    if (!domain || !email?.includes("@")) return false;
    if (!when.emailDomain.some((d) => d.toLowerCase().replace(/^@/, "") === domain)) return false;
  }
  return true;
}
