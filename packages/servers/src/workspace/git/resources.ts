import type { Context, McpServer, ReadReturn } from "mcpkit/server";
import { asProtocolError, WorkspaceError } from "../errors.js";
import type { Area } from "../roots/area.js";
import type { RootScope } from "../roots/client-roots.js";
import { gitBranches, gitDiff, gitLog, gitStatus } from "./commands.js";
import type { Repo } from "./repos.js";

/**
 * Git history and state as resources (the seeds' git://commits/main): per repository its
 * recent commits, status and diff, and a template for the commits of any branch.
 */
export function registerGitResources(server: McpServer, repos: readonly Repo[], scope: RootScope): void {
  const serve =
    (read: (repo: Repo, areas: Area[], ctx: Context) => Promise<string>, repo: Repo, mimeType = "text/plain") =>
    async (uri: string, ctx: Context): Promise<ReadReturn> => {
      try {
        return { uri, mimeType, text: await read(repo, await scope.areas(ctx), ctx) };
      } catch (error) {
        throw asProtocolError(error, { uri });
      }
    };

  for (const repo of repos) {
    server.resource(
      `git://${repo.name}/commits`,
      {
        name: `${repo.name} commits`,
        title: `Recent commits of ${repo.name}`,
        description: `The last 50 commits on the current branch of ${repo.top}`,
        mimeType: "text/plain",
      },
      serve((r, areas, ctx) => gitLog(r, areas, { maxCount: 50 }, ctx.signal), repo),
    );
    server.resource(
      `git://${repo.name}/status`,
      {
        name: `${repo.name} status`,
        title: `Status of ${repo.name}`,
        description: "The branch and the changed, staged and untracked files",
        mimeType: "text/plain",
      },
      serve(async (r, areas, ctx) => (await gitStatus(r, areas, ctx.signal)) || "Clean.", repo),
    );
    server.resource(
      `git://${repo.name}/diff`,
      {
        name: `${repo.name} diff`,
        title: `Uncommitted changes in ${repo.name}`,
        description: "The working tree against HEAD, as a unified diff",
        mimeType: "text/x-diff",
      },
      serve((r, areas, ctx) => gitDiff(r, areas, { target: "HEAD" }, ctx.signal), repo, "text/x-diff"),
    );
  }

  const byName = (name: unknown) => {
    const repo = repos.find((r) => r.name === name);
    if (!repo) throw new WorkspaceError(`No repository named "${String(name)}"`);
    return repo;
  };

  server.resourceTemplate(
    "git://{repo}/commits/{+branch}",
    {
      name: "branch-commits",
      title: "Commits of a branch",
      description: "The last 50 commits of a branch, tag or commit",
      mimeType: "text/plain",
      complete: {
        repo: (value) => repos.map((r) => r.name).filter((n) => n.startsWith(value)),
        branch: async (value, { arguments: given }) => {
          const repo = repos.find((r) => r.name === given.repo) ?? repos[0];
          return repo ? (await gitBranches(repo)).filter((b) => b.startsWith(value)) : [];
        },
      },
    },
    async (uri, { repo, branch }, ctx) => {
      try {
        const areas = await scope.areas(ctx);
        const text = await gitLog(byName(repo), areas, { maxCount: 50, revision: String(branch) }, ctx.signal);
        return { uri, mimeType: "text/plain", text };
      } catch (error) {
        throw asProtocolError(error, { uri });
      }
    },
  );
}
