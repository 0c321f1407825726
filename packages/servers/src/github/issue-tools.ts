import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import type { GitHubApi } from "./api.js";
import { ADDITIVE, order, owner, page, paging, perPage, READ, repo } from "./arguments.js";
import { issueDetail, issueLine, reply } from "./format.js";

type Obj = Record<string, unknown>;
const issueNumber = z.number().int().min(1).describe("The issue's number");

/** list_issues and get_issue; with allowWrite, create_issue and add_issue_comment. */
export function registerIssueTools(server: McpServer, api: GitHubApi, allowWrite: boolean): void {
  server.tool(
    "list_issues",
    {
      title: "List issues",
      description: "A repository's issues, newest first (GitHub lists pull requests among them, marked as such).",
      input: z.object({
        owner,
        repo,
        state: z.enum(["open", "closed", "all"]).describe("Which issues (default open)").optional(),
        labels: z.array(z.string()).max(20).describe("Only issues with all of these labels").optional(),
        sort: z.enum(["created", "updated", "comments"]).describe("Sort by (default created)").optional(),
        direction: order,
        since: z.string().describe("Only issues updated after this time (ISO 8601)").optional(),
        page,
        perPage,
      }),
      annotations: READ,
    },
    async (args, ctx) => {
      const p = paging(args);
      const answer = await api.call(ctx, `${args.owner}/${args.repo}'s issues`, (github, request) =>
        github.rest.issues.listForRepo({
          owner: args.owner,
          repo: args.repo,
          state: args.state,
          ...(args.labels && { labels: args.labels.join(",") }),
          sort: args.sort,
          direction: args.direction,
          since: args.since,
          page: p.page,
          per_page: p.perPage,
          request,
        }),
      );
      const items = answer.data as unknown as Obj[];
      const lines = items.length ? items.map(issueLine) : ["No issues match."];
      return reply([`${args.owner}/${args.repo}: ${args.state ?? "open"} issues`, ...lines], answer, {
        ...p,
        shown: items.length,
      });
    },
  );

  server.tool(
    "get_issue",
    {
      title: "Read an issue",
      description: "An issue (or pull request) with its description and its first comments.",
      input: z.object({
        owner,
        repo,
        issue_number: issueNumber,
        comments: z
          .number()
          .int()
          .min(0)
          .max(100)
          .describe("How many comments to include, oldest first (default 30)")
          .optional(),
      }),
      annotations: READ,
    },
    async (args, ctx) => {
      const what = `${args.owner}/${args.repo} issue #${args.issue_number}`;
      const issue = await api.call(ctx, what, (github, request) =>
        github.rest.issues.get({ owner: args.owner, repo: args.repo, issue_number: args.issue_number, request }),
      );
      const wanted = args.comments ?? 30;
      const total = Number((issue.data as unknown as Obj).comments ?? 0);
      const comments =
        wanted > 0 && total > 0
          ? await api.call(ctx, `the comments of ${what}`, (github, request) =>
              github.rest.issues.listComments({
                owner: args.owner,
                repo: args.repo,
                issue_number: args.issue_number,
                per_page: wanted,
                request,
              }),
            )
          : undefined;
      const shown = (comments?.data ?? []) as unknown as Obj[];
      const cut =
        total > shown.length
          ? [`[${shown.length} of ${total} comments shown; ask for more with comments (up to 100)]`]
          : [];
      return reply([issueDetail(issue.data as unknown as Obj, shown), ...cut], comments ?? issue);
    },
  );

  if (!allowWrite) return;

  server.tool(
    "create_issue",
    {
      title: "Open an issue",
      description: "Opens an issue in a repository (needs a token that may write issues).",
      input: z.object({
        owner,
        repo,
        title: z.string().min(1).max(256).describe("The title"),
        body: z.string().max(65_536).describe("The description, in Markdown").optional(),
        labels: z.array(z.string()).max(20).describe("Labels to put on it").optional(),
        assignees: z.array(z.string()).max(10).describe("Users to assign").optional(),
      }),
      annotations: ADDITIVE,
    },
    async (args, ctx) => {
      const answer = await api.call(
        ctx,
        `a new issue in ${args.owner}/${args.repo}`,
        (github, request) =>
          github.rest.issues.create({
            owner: args.owner,
            repo: args.repo,
            title: args.title,
            body: args.body,
            labels: args.labels,
            assignees: args.assignees,
            request,
          }),
        true,
      );
      const issue = answer.data as unknown as Obj;
      return reply([`Opened issue #${String(issue.number)}: ${String(issue.title)}`, String(issue.html_url)], answer);
    },
  );

  server.tool(
    "add_issue_comment",
    {
      title: "Comment on an issue",
      description: "Adds a comment to an issue or a pull request (needs a token that may write issues).",
      input: z.object({
        owner,
        repo,
        issue_number: issueNumber,
        body: z.string().min(1).max(65_536).describe("The comment, in Markdown"),
      }),
      annotations: ADDITIVE,
    },
    async (args, ctx) => {
      const answer = await api.call(
        ctx,
        `${args.owner}/${args.repo} issue #${args.issue_number}`,
        (github, request) =>
          github.rest.issues.createComment({
            owner: args.owner,
            repo: args.repo,
            issue_number: args.issue_number,
            body: args.body,
            request,
          }),
        true,
      );
      return reply([`Commented on #${args.issue_number}: ${String((answer.data as unknown as Obj).html_url)}`], answer);
    },
  );
}
