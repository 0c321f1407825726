import type { Context, ServerSession } from "mcpkit/server";

/** A commit message convention, as the user chose it. */
export interface Convention {
  kind: "conventional" | "angular" | "custom";
  /** The user's own rules, for "custom". */
  rules?: string;
}

export const CONVENTION_KINDS = ["conventional", "angular", "custom"] as const;

const RULES: Record<Exclude<Convention["kind"], "custom">, string> = {
  conventional:
    "Follow Conventional Commits 1.0.0: a header `type(scope)!: description`, type one of feat, fix, docs, style, refactor, perf, test, build, ci, chore or revert, the scope optional, `!` only for a breaking change; then an optional body; a breaking change also gets a `BREAKING CHANGE:` footer.",
  angular:
    "Follow the Angular commit message format: a header `<type>(<scope>): <summary>` with type one of build, ci, docs, feat, fix, perf, refactor or test, the summary in the imperative and present tense, lower case, without a final period; lines of at most 100 characters; a body that explains the motivation; footers for breaking changes (`BREAKING CHANGE:`) and closed issues.",
};

/** The instructions a convention gives the model. */
export function conventionRules(convention: Convention | undefined): string {
  if (!convention)
    return "No convention was chosen: write a summary line in the imperative of at most 72 characters, a blank line, then what changed and why.";
  if (convention.kind === "custom")
    return `Follow this project's own convention: ${convention.rules?.trim() || "(the user gave none; use a short imperative summary line)"}`;
  return RULES[convention.kind];
}

export const conventionName = (c: Convention) =>
  c.kind === "custom" ? "a custom convention" : c.kind === "conventional" ? "Conventional Commits" : "Angular";

/** Subjects of the form `type(scope): text`: what Conventional Commits and Angular share. */
const TYPED_SUBJECT = /^(feat|fix|docs|style|refactor|perf|test|build|ci|chore|revert)(\([^)]*\))?!?: \S/;

/** "conventional" when most recent subjects are typed (git log --format=%s), else undefined. */
export function guessConvention(subjects: readonly string[]): Convention["kind"] | undefined {
  if (subjects.length < 3) return undefined;
  const typed = subjects.filter((s) => TYPED_SUBJECT.test(s)).length;
  return typed / subjects.length >= 0.6 ? "conventional" : undefined;
}

/**
 * The convention each caller chose, for "the session". On 2024-11-05 … 2025-11-25 that is
 * the connection (ctx.session). A 2026-07-28 request has no session, so the nearest thing
 * is the authorization context: the verified token's issuer and subject, the same line
 * the caching spec draws for private results. A 2026-07-28 request without a verified
 * token has nothing that lasts beyond it: it is asked again, unless it passes
 * `convention` as an argument (which every caller may, to skip the question).
 */
export function conventionMemory(maxPrincipals = 1000) {
  const bySession = new WeakMap<ServerSession, Convention>();
  const byPrincipal = new Map<string, Convention>();
  const principal = (ctx: Context): string | undefined => {
    const auth = ctx.auth as { subject?: unknown; claims?: { iss?: unknown } } | undefined;
    return typeof auth?.subject === "string" ? `${String(auth.claims?.iss ?? "")} ${auth.subject}` : undefined;
  };
  return {
    recall(ctx: Context): Convention | undefined {
      if (ctx.session) return bySession.get(ctx.session);
      const who = principal(ctx);
      return who === undefined ? undefined : byPrincipal.get(who);
    },
    remember(ctx: Context, convention: Convention): void {
      if (ctx.session) return void bySession.set(ctx.session, convention);
      const who = principal(ctx);
      if (who === undefined) return;
      byPrincipal.delete(who);
      byPrincipal.set(who, convention);
      if (byPrincipal.size > maxPrincipals) byPrincipal.delete(byPrincipal.keys().next().value as string);
    },
  };
}
