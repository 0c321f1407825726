import type { ElicitFormParams } from "mcpkit";
import type { Context, McpServer } from "mcpkit/server";
import { asProtocolError, WorkspaceError } from "../errors.js";
import { fenced, user } from "../prompt-parts.js";
import type { RootScope } from "../roots/client-roots.js";
import { gitBranches, gitDiff } from "./commands.js";
import {
  CONVENTION_KINDS,
  type Convention,
  conventionMemory,
  conventionName,
  conventionRules,
  guessConvention,
} from "./convention.js";
import { pickRepo, type Repo, repoScope } from "./repos.js";
import { runGit } from "./run.js";

/** The elicitation form, with the convention the history suggests as its default. */
type Form = ElicitFormParams["requestedSchema"];
const forms = new Map<string, Form>();
function conventionForm(guess: string | undefined): Form {
  const key = guess ?? "";
  let form = forms.get(key);
  if (!form) {
    form = {
      type: "object",
      properties: {
        convention: {
          type: "string",
          title: "Commit convention",
          oneOf: [
            { const: "conventional", title: "Conventional Commits" },
            { const: "angular", title: "Angular" },
            { const: "custom", title: "Custom (describe it below)" },
          ],
          ...(guess && { default: guess }),
        },
        rules: { type: "string", title: "Your convention", description: "For Custom: the rules to follow" },
      },
      required: ["convention"],
    } as Form;
    forms.set(key, form);
  }
  return form;
}

/** Form elicitation is there when the client declared elicitation without restricting it to URLs. */
function canAskForm(ctx: Context): boolean {
  const elicitation = ctx.client.capabilities.elicitation as { form?: unknown; url?: unknown } | undefined;
  return elicitation !== undefined && !(elicitation.url && !elicitation.form);
}

/** The subjects of the last commits the request may see, to guess the convention in use. */
async function recentSubjects(repo: Repo, scope: string[], signal: AbortSignal): Promise<string[]> {
  try {
    const args = ["log", "--max-count=30", "--format=%s", "--end-of-options", "HEAD", "--", ...scope];
    const { stdout } = await runGit(repo.top, args, { signal });
    return stdout.split("\n").filter(Boolean);
  } catch {
    return []; // No commits yet: nothing to guess from.
  }
}

/** A `convention` argument: one of the kinds, or a custom convention in the caller's words. */
function givenConvention(value: string): Convention {
  const kind = value.trim().toLowerCase();
  return (CONVENTION_KINDS as readonly string[]).includes(kind) && kind !== "custom"
    ? { kind: kind as Convention["kind"] }
    : { kind: "custom", rules: value };
}

/**
 * git-commit(changes) of seed 004: a commit message request for the changes given, or for
 * what is staged when none are (or all that differs from a `base` branch). The convention to follow (seed 003 §6.3: Conventional
 * Commits, Angular or custom) is asked of the user through form elicitation when the
 * client supports it, once per session (convention.ts says what a session is in
 * 2026-07-28), with the one the history suggests offered first.
 */
export function registerCommitPrompt(server: McpServer, deps: { scope: RootScope; repos: readonly Repo[] }): void {
  const memory = conventionMemory();
  server.prompt(
    "git-commit",
    {
      title: "Write a commit message",
      description:
        "Generates a commit message for changes (default: what is staged), following the convention you choose",
      args: {
        changes: { description: "A diff or a description of the changes (default: the staged diff)" },
        base: {
          description:
            "Describe everything that differs from this branch instead (git diff BRANCH), as for a squash merge",
        },
        convention: { description: "conventional, angular, or your own rules (default: asked once per session)" },
        repo: { description: `The repository: ${deps.repos.map((r) => r.name).join(", ")} (default: the first)` },
      },
      complete: {
        convention: (value) => CONVENTION_KINDS.filter((k) => k.startsWith(value.toLowerCase())),
        repo: (value) => deps.repos.map((r) => r.name).filter((n) => n.startsWith(value)),
        base: async (value, { arguments: chosen }) => {
          const named = deps.repos.find((r) => r.name === chosen.repo) ?? deps.repos[0];
          const branches = named ? await gitBranches(named).catch(() => []) : [];
          return branches.filter((b) => b.startsWith(value));
        },
      },
    },
    async (args, ctx) => {
      try {
        const areas = await deps.scope.areas(ctx);
        const repo = pickRepo(deps.repos, areas, args.repo || undefined);
        const scope = repoScope(repo, areas);
        let changes = args.changes?.trim() ? args.changes : undefined;
        if (!changes) {
          const base = args.base?.trim() || undefined;
          const diff = await gitDiff(repo, areas, base ? { target: base } : { staged: true }, ctx.signal);
          if (diff === "No differences.")
            throw new WorkspaceError(
              base
                ? `Nothing differs from ${base} in ${repo.name}`
                : `Nothing is staged in ${repo.name}: stage changes with git add, or pass them as "changes"`,
            );
          changes = diff;
        }

        let convention = args.convention?.trim() ? givenConvention(args.convention) : memory.recall(ctx);
        let how = args.convention?.trim() ? "given" : "remembered for this session";
        if (!convention) {
          if (canAskForm(ctx)) {
            const guess = guessConvention(await recentSubjects(repo, scope, ctx.signal));
            const answer = await ctx.elicit({
              message: `Which convention should commit messages in ${repo.name} follow?${guess ? " (The recent history looks like Conventional Commits.)" : ""}`,
              schema: conventionForm(guess),
              key: "commit-convention",
            });
            if (answer.action === "accept" && answer.content) {
              const { convention: kind, rules } = answer.content as { convention: Convention["kind"]; rules?: string };
              convention = kind === "custom" ? { kind, rules: rules ?? "" } : { kind };
              memory.remember(ctx, convention);
              how = "chosen by the user";
            } else {
              how = `none: the user ${answer.action === "decline" ? "declined" : "cancelled"} the question`;
            }
          } else {
            how = "none: the client cannot ask the user (no form elicitation)";
          }
        }
        return {
          description: `Commit message for ${repo.name}; convention: ${convention ? conventionName(convention) : "none"} (${how})`,
          messages: [
            user(
              `Generate a concise but descriptive commit message for these changes. ${conventionRules(convention)} Answer with the message only.\n\n${fenced(changes, "diff")}`,
            ),
          ],
        };
      } catch (error) {
        throw asProtocolError(error);
      }
    },
  );
}
