import { realpath } from "node:fs/promises";
import { basename, relative } from "node:path";
import { WorkspaceError } from "../errors.js";
import type { Area } from "../roots/area.js";
import { isInside } from "../roots/inside.js";
import { runGit } from "./run.js";

/** A git repository a configured root is (or lies in). */
export interface Repo {
  /** A short name for URIs and arguments: the directory name, made unique. */
  name: string;
  /** The work tree's top directory, symbolic links resolved. */
  top: string;
}

/** The repositories of the configured roots, found once at startup. */
export async function findRepos(areas: readonly Area[]): Promise<Repo[]> {
  const repos: Repo[] = [];
  for (const area of areas) {
    let top: string;
    try {
      const { stdout } = await runGit(area.real, ["rev-parse", "--show-toplevel"], { timeoutMs: 5000 });
      top = await realpath(stdout.trim());
    } catch {
      continue; // Not a repository (or no git): no git features for this root.
    }
    if (repos.some((r) => r.top === top)) continue;
    const base =
      basename(top)
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, "-") || "repo";
    let name = base;
    for (let n = 2; repos.some((r) => r.name === name); n++) name = `${base}-${n}`;
    repos.push({ name, top });
  }
  return repos;
}

/**
 * What of a repository one request may see, as git pathspecs: the whole work tree when an
 * allowed area contains it, else the allowed areas inside it (a client whose root is
 * `repo/docs` sees history and changes of `repo/docs` only). Refused when none overlap.
 */
export function repoScope(repo: Repo, areas: readonly Area[]): string[] {
  if (areas.some((a) => isInside(a.real, repo.top))) return [];
  const inside = areas.filter((a) => isInside(repo.top, a.real));
  if (inside.length === 0) {
    throw new WorkspaceError(`Access denied: the repository "${repo.name}" is outside the allowed directories`);
  }
  // :(literal) so a directory name is never read as a glob.
  return inside.map((a) => `:(literal)${relative(repo.top, a.real)}`);
}

/** The named repository, or the first one the request may see. */
export function pickRepo(repos: readonly Repo[], areas: readonly Area[], name: string | undefined): Repo {
  if (repos.length === 0) throw new WorkspaceError("None of the server's roots is a git repository");
  if (name !== undefined) {
    const repo = repos.find((r) => r.name === name);
    if (!repo)
      throw new WorkspaceError(`No repository named "${name}"; there are: ${repos.map((r) => r.name).join(", ")}`);
    return repo;
  }
  const visible = repos.find((repo) => {
    try {
      repoScope(repo, areas);
      return true;
    } catch {
      return false;
    }
  });
  if (!visible) throw new WorkspaceError("No git repository is inside the allowed directories");
  return visible;
}
