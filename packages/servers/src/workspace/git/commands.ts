import { relative } from "node:path";
import { WorkspaceError } from "../errors.js";
import { guardPath } from "../files/guard.js";
import type { Area } from "../roots/area.js";
import { isInside } from "../roots/inside.js";
import { type Repo, repoScope } from "./repos.js";
import { checkRevision } from "./revision.js";
import { runGit } from "./run.js";

/** The read-only git commands behind the tools, resources and analyze_commits. */

export interface LogOptions {
  revision?: string;
  maxCount?: number;
  since?: string;
  author?: string;
  path?: string;
  stat?: boolean;
}

export interface DiffOptions {
  target?: string;
  staged?: boolean;
  path?: string;
}

const TRUNCATED = "\n[truncated: the output passed the size limit; narrow it with a path, a revision or fewer commits]";

/** A free-text filter value (since, author): one argv element after "=", so never an option. */
function checkText(value: string, what: string): string {
  if (value.length > 200 || [...value].some((c) => c.charCodeAt(0) < 0x20))
    throw new WorkspaceError(`Refused: the ${what} is not plain text`);
  return value;
}

/** The pathspecs: the request's scope of the repository, or one path inside it. */
async function pathspecs(repo: Repo, areas: readonly Area[], path: string | undefined): Promise<string[]> {
  const scope = repoScope(repo, areas);
  if (path === undefined) return scope;
  const target = await guardPath(areas, path, { mayCreate: true });
  if (!isInside(repo.top, target.real)) throw new WorkspaceError(`${path} is not inside the repository "${repo.name}"`);
  return [`:(literal)${relative(repo.top, target.real) || "."}`];
}

const finish = (out: { stdout: string; truncated: boolean }, empty: string) =>
  (out.stdout.trim() === "" ? empty : out.stdout.trimEnd()) + (out.truncated ? TRUNCATED : "");

export async function gitLog(repo: Repo, areas: readonly Area[], options: LogOptions, signal?: AbortSignal) {
  const args = ["log", `--max-count=${options.maxCount ?? 20}`, "--date=iso-strict", "--format=medium", "--no-color"];
  if (options.stat) args.push("--stat");
  if (options.since !== undefined) args.push(`--since=${checkText(options.since, "since date")}`);
  if (options.author !== undefined) args.push("--fixed-strings", `--author=${checkText(options.author, "author")}`);
  args.push("--end-of-options", checkRevision(options.revision ?? "HEAD", "branch"), "--");
  args.push(...(await pathspecs(repo, areas, options.path)));
  return finish(await runGit(repo.top, args, { signal }), "No commits match.");
}

export async function gitDiff(repo: Repo, areas: readonly Area[], options: DiffOptions, signal?: AbortSignal) {
  const args = ["diff", "--no-ext-diff", "--no-textconv", "--no-color"];
  if (options.staged) args.push("--cached");
  args.push("--end-of-options");
  if (options.target !== undefined) args.push(checkRevision(options.target, "target"));
  args.push("--", ...(await pathspecs(repo, areas, options.path)));
  return finish(await runGit(repo.top, args, { signal }), "No differences.");
}

export async function gitStatus(repo: Repo, areas: readonly Area[], signal?: AbortSignal) {
  const args = ["status", "--short", "--branch", "--", ...(await pathspecs(repo, areas, undefined))];
  return finish(await runGit(repo.top, args, { signal }), "");
}

/** Local and remote-tracking branch names (for completion and git_branches). */
export async function gitBranches(repo: Repo, signal?: AbortSignal): Promise<string[]> {
  const args = ["for-each-ref", "--format=%(refname:short)", "--count=1000", "refs/heads", "refs/remotes"];
  const { stdout } = await runGit(repo.top, args, { signal });
  return stdout.split("\n").filter((line) => line !== "" && !line.endsWith("/HEAD"));
}
