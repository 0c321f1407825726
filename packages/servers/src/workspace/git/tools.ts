import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import type { RootScope } from "../roots/client-roots.js";
import { gitBranches, gitDiff, gitLog, gitStatus } from "./commands.js";
import { pickRepo, type Repo, repoScope } from "./repos.js";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** git_status, git_log, git_diff, git_branches: read-only, on the repositories among the roots. */
export function registerGitTools(server: McpServer, repos: readonly Repo[], scope: RootScope): void {
  const names = repos.map((r) => r.name);
  const repo = z
    .string()
    .describe(`The repository: ${names.join(", ")} (default: the first one the client may see)`)
    .optional();

  server.tool(
    "git_status",
    {
      title: "git status",
      description: "The branch and the changed, staged and untracked files (git status --short --branch).",
      input: z.object({ repo }),
      annotations: READ_ONLY,
    },
    async (args, ctx) => {
      const areas = await scope.areas(ctx);
      return gitStatus(pickRepo(repos, areas, args.repo), areas, ctx.signal);
    },
  );

  server.tool(
    "git_log",
    {
      title: "git log",
      description: "Recent commits, newest first: hash, author, date and message; with stat, the files each changed.",
      input: z.object({
        repo,
        branch: z.string().describe("A branch, tag or commit (default HEAD)").optional(),
        maxCount: z.number().int().min(1).max(200).describe("How many commits (default 20)").optional(),
        since: z.string().describe('Only commits after this date, such as "2024-06-01" or "7 days ago"').optional(),
        author: z.string().describe("Only commits whose author contains this text").optional(),
        path: z.string().describe("Only commits touching this file or directory").optional(),
        stat: z.boolean().describe("List the files each commit changed").optional(),
      }),
      annotations: READ_ONLY,
    },
    async (args, ctx) => {
      const areas = await scope.areas(ctx);
      const { repo: name, branch, ...options } = args;
      return gitLog(pickRepo(repos, areas, name), areas, { ...options, revision: branch }, ctx.signal);
    },
  );

  server.tool(
    "git_diff",
    {
      title: "git diff",
      description:
        "Changes as a unified diff: the working tree against the index by default, staged changes with staged, or against a branch or commit with target.",
      input: z.object({
        repo,
        target: z.string().describe('Compare with this branch or commit (e.g. "HEAD", "main")').optional(),
        staged: z.boolean().describe("Show staged changes (git diff --cached)").optional(),
        path: z.string().describe("Only this file or directory").optional(),
      }),
      annotations: READ_ONLY,
    },
    async (args, ctx) => {
      const areas = await scope.areas(ctx);
      const { repo: name, ...options } = args;
      return gitDiff(pickRepo(repos, areas, name), areas, options, ctx.signal);
    },
  );

  server.tool(
    "git_branches",
    {
      title: "git branches",
      description: "The local and remote-tracking branches.",
      input: z.object({ repo }),
      annotations: READ_ONLY,
    },
    async (args, ctx) => {
      const areas = await scope.areas(ctx);
      const chosen = pickRepo(repos, areas, args.repo);
      repoScope(chosen, areas);
      return (await gitBranches(chosen, ctx.signal)).join("\n") || "No branches yet.";
    },
  );
}
