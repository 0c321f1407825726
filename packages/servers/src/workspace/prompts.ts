import type { McpServer } from "mcpkit/server";
import { registerCodePrompts } from "./code-prompts.js";
import { asProtocolError, WorkspaceError } from "./errors.js";
import { gitBranches, gitLog } from "./git/commands.js";
import { registerCommitPrompt } from "./git/commit-prompt.js";
import { pickRepo, type Repo, repoScope } from "./git/repos.js";
import { fenced, user } from "./prompt-parts.js";
import type { Area } from "./roots/area.js";
import type { RootScope } from "./roots/client-roots.js";
import type { SqlEngine } from "./sqlite/engine.js";
import type { TableDescription, TableInfo } from "./sqlite/protocol.js";
import { SCHEMA_URI } from "./sqlite/resources.js";

/** Of the repositories the request may see, the first that has the branch (else the first). */
async function repoWithBranch(repos: readonly Repo[], areas: readonly Area[], branch: string): Promise<Repo> {
  for (const repo of repos) {
    try {
      repoScope(repo, areas);
      if ((await gitBranches(repo)).includes(branch)) return repo;
    } catch {
      // Not visible to this client, or git failed: try the next.
    }
  }
  return pickRepo(repos, areas, undefined);
}

/**
 * The prompts of the seed documents: code_review, explain_error, review_code and
 * explain-code; with a repository analyze_commits and git-commit; with SQLite analyze_data.
 */
export function registerPrompts(
  server: McpServer,
  deps: { scope: RootScope; repos: readonly Repo[]; engine: SqlEngine | undefined; maxReadBytes: number },
) {
  registerCodePrompts(server, deps);
  if (deps.repos.length > 0) registerCommitPrompt(server, deps);

  server.prompt(
    "code_review",
    {
      title: "Code review",
      description: "Asks the model to analyze code quality and suggest improvements",
      args: { code: { description: "The code to review", required: true } },
    },
    ({ code }) =>
      `Please review the following code. Look at correctness and edge cases, readability and naming, error handling, security, and performance. For each problem, say where it is, why it matters and how to fix it; end with the most important improvements first.\n\n${fenced(code ?? "")}`,
  );

  server.prompt(
    "explain_error",
    {
      title: "Explain an error",
      description: "Explains an error message and suggests how to fix it",
      args: { error_message: { description: "The error message or stack trace", required: true } },
    },
    ({ error_message }) =>
      `Explain this error: what it means, its most likely causes, and how to fix each of them, most likely first. If the files of this workspace can tell which cause it is, say which ones to look at.\n\n${fenced(error_message ?? "")}`,
  );

  const { repos, scope, engine } = deps;
  if (repos.length > 0) {
    server.prompt(
      "analyze_commits",
      {
        title: "Analyze commits",
        description: "Analyzes the git history of a branch and writes a report",
        args: {
          branch: { description: "The branch to analyze", required: true },
          since: { description: 'Start of the period, such as "7 days ago" (default: 7 days ago)' },
          author: { description: "Only this author's commits" },
        },
        complete: {
          branch: async (value) => {
            const all = new Set<string>();
            for (const repo of repos) for (const b of await gitBranches(repo).catch(() => [])) all.add(b);
            return [...all].filter((b) => b.startsWith(value)).sort();
          },
        },
      },
      async ({ branch, since, author }, ctx) => {
        try {
          const areas = await scope.areas(ctx);
          const period = since || "7 days ago";
          const repo = await repoWithBranch(repos, areas, branch ?? "");
          const log = await gitLog(
            repo,
            areas,
            { revision: branch, since: period, maxCount: 200, stat: true, ...(author && { author }) },
            ctx.signal,
          );
          const who = author ? `, by ${author}` : "";
          return {
            description: `Commits on ${branch} since ${period}${who}`,
            messages: [
              user(
                `Please analyze the git history of the ${branch} branch since ${period}${who}. Report:\n1. The total number of commits\n2. Each author's commits and lines changed\n3. The files changed most often\n4. Any breaking changes\n5. How well the commit messages follow a convention\n\nUse tables, and end with suggestions for improvement. The log follows.`,
              ),
              {
                role: "user",
                content: {
                  type: "resource",
                  resource: {
                    uri: `git://${repo.name}/commits/${encodeURIComponent(branch ?? "")}`,
                    mimeType: "text/plain",
                    text: log,
                  },
                },
              },
            ],
          };
        } catch (error) {
          throw asProtocolError(error);
        }
      },
    );
  }

  if (!engine) return;
  const tableNames = async () => (await engine.run<TableInfo[]>({ op: "tables" })).map((t) => t.name);
  server.prompt(
    "analyze_data",
    {
      title: "Analyze data",
      description: `Starts an analysis of one table of ${engine.label}`,
      args: { table: { description: "The table to analyze", required: true } },
      complete: { table: async (value) => (await tableNames()).filter((name) => name.startsWith(value)) },
    },
    async ({ table }, ctx) => {
      try {
        const described = await engine.run<TableDescription>({ op: "describe", table: table ?? "" }, ctx.signal);
        if (!described) throw new WorkspaceError(`No table named ${table}`);
        return {
          description: `Analysis of ${described.name}`,
          messages: [
            {
              role: "user",
              content: {
                type: "resource",
                resource: {
                  uri: `${SCHEMA_URI}/${encodeURIComponent(described.name)}`,
                  mimeType: "application/json",
                  text: JSON.stringify(described, null, 2),
                },
              },
            },
            user(
              `Analyze the data in the ${described.type} "${described.name}" (schema above). Use the read_query tool: start with row counts and the distribution of each column, look for missing or unusual values, then relate it to other tables through its keys. Explain what you find, show the SQL you ran, and suggest further questions worth asking.`,
            ),
          ],
        };
      } catch (error) {
        throw asProtocolError(error);
      }
    },
  );
}
