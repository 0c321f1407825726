import type { Octokit } from "@octokit/rest";
import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import type { GitHubApi } from "./api.js";
import { order, page, paging, perPage, READ } from "./arguments.js";
import { issueLine, reply, repoLine } from "./format.js";

type Obj = Record<string, unknown>;
type Found = { total_count: number; incomplete_results: boolean; items: unknown[] };
type Query = {
  q: string;
  sort?: string;
  order?: "asc" | "desc";
  page: number;
  per_page: number;
  request: { signal: AbortSignal };
};

const query = z.string().min(1).max(256).describe('GitHub search syntax, such as "mcp language:typescript stars:>100"');

/** One search tool: GitHub's answer, headed by how many matched and GitHub's own limits on it. */
function searchTool(
  server: McpServer,
  api: GitHubApi,
  spec: {
    name: string;
    title: string;
    description: string;
    /** What is found, plural ("repositories"). */
    what: string;
    sorts?: readonly [string, ...string[]];
    needsToken?: boolean;
    search: (
      github: Octokit,
      query: Query,
    ) => Promise<{ data: Found; headers: Record<string, string | number | undefined> }>;
    line: (item: Obj) => string;
  },
): void {
  const sorting = spec.sorts
    ? { sort: z.enum(spec.sorts).describe("Sort by (default: best match)").optional(), order }
    : {};
  server.tool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      input: z.object({ query, ...sorting, page, perPage }),
      annotations: READ,
    },
    async (args, ctx) => {
      const p = paging(args);
      const { sort, order: direction } = args as { sort?: string; order?: "asc" | "desc" };
      const answer = await api.call(
        ctx,
        `the ${spec.what} search "${args.query}"`,
        (github, request) =>
          spec.search(github, { q: args.query, sort, order: direction, page: p.page, per_page: p.perPage, request }),
        spec.needsToken,
      );
      const { total_count: total, incomplete_results: incomplete } = answer.data;
      const head = `${total} ${spec.what} match "${args.query}"${incomplete ? " (GitHub's search timed out: the results may be incomplete)" : ""}${total > 1000 ? "; GitHub's search returns the first 1,000 at most" : ""}`;
      const items = answer.data.items as Obj[];
      return reply([head, ...items.map(spec.line)], answer, { ...p, shown: items.length });
    },
  );
}

/** search_repositories, search_code, search_issues (GitHub's search syntax: "language:go stars:>100"). */
export function registerSearchTools(server: McpServer, api: GitHubApi): void {
  searchTool(server, api, {
    name: "search_repositories",
    title: "Search repositories",
    description: "Repositories matching a GitHub search query, with stars, language and description.",
    what: "repositories",
    sorts: ["stars", "forks", "help-wanted-issues", "updated"],
    search: (github, q) => github.rest.search.repos(q as Parameters<Octokit["rest"]["search"]["repos"]>[0] & Query),
    line: repoLine,
  });
  searchTool(server, api, {
    name: "search_code",
    title: "Search code",
    description:
      "Files whose contents match a GitHub code search query (needs a token: GitHub does not search code anonymously).",
    what: "files",
    needsToken: true,
    search: (github, { sort: _sort, order: _order, ...q }) => github.rest.search.code(q),
    line: (i) => `${String((i.repository as Obj | undefined)?.full_name)}: ${String(i.path)} ${String(i.html_url)}`,
  });
  searchTool(server, api, {
    name: "search_issues",
    title: "Search issues and pull requests",
    description:
      'Issues and pull requests matching a GitHub search query ("repo:owner/name is:open label:bug", "is:pr author:octocat").',
    what: "issues and pull requests",
    sorts: ["comments", "reactions", "created", "updated"],
    search: (github, q) =>
      github.rest.search.issuesAndPullRequests(
        q as Parameters<Octokit["rest"]["search"]["issuesAndPullRequests"]>[0] & Query,
      ),
    line: issueLine,
  });
}
