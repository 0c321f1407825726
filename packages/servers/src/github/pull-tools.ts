import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import type { GitHubApi } from "./api.js";
import { ADDITIVE, DESTRUCTIVE, order, owner, page, paging, perPage, READ, repo } from "./arguments.js";
import { pullDetail, pullLine, reply } from "./format.js";

type Obj = Record<string, unknown>;
const pullNumber = z.number().int().min(1).describe("The pull request's number");

/** list_pull_requests, get_pull_request; with allowWrite, create, review and merge. */
export function registerPullTools(server: McpServer, api: GitHubApi, allowWrite: boolean): void {
  server.tool(
    "list_pull_requests",
    {
      title: "List pull requests",
      description: "A repository's pull requests, newest first.",
      input: z.object({
        owner,
        repo,
        state: z.enum(["open", "closed", "all"]).describe("Which ones (default open)").optional(),
        head: z.string().describe('Only from this branch, as "user:branch"').optional(),
        base: z.string().describe("Only into this branch").optional(),
        sort: z
          .enum(["created", "updated", "popularity", "long-running"])
          .describe("Sort by (default created)")
          .optional(),
        direction: order,
        page,
        perPage,
      }),
      annotations: READ,
    },
    async (args, ctx) => {
      const p = paging(args);
      const answer = await api.call(ctx, `${args.owner}/${args.repo}'s pull requests`, (github, request) =>
        github.rest.pulls.list({
          owner: args.owner,
          repo: args.repo,
          state: args.state,
          head: args.head,
          base: args.base,
          sort: args.sort,
          direction: args.direction,
          page: p.page,
          per_page: p.perPage,
          request,
        }),
      );
      const items = answer.data as unknown as Obj[];
      const lines = items.length ? items.map(pullLine) : ["No pull requests match."];
      return reply([`${args.owner}/${args.repo}: ${args.state ?? "open"} pull requests`, ...lines], answer, {
        ...p,
        shown: items.length,
      });
    },
  );

  server.tool(
    "get_pull_request",
    {
      title: "Read a pull request",
      description:
        "A pull request: branches, state, whether it can be merged, its description and the files it changes.",
      input: z.object({ owner, repo, pull_number: pullNumber }),
      annotations: READ,
    },
    async (args, ctx) => {
      const what = `${args.owner}/${args.repo} pull request #${args.pull_number}`;
      const target = { owner: args.owner, repo: args.repo, pull_number: args.pull_number };
      const pull = await api.call(ctx, what, (github, request) => github.rest.pulls.get({ ...target, request }));
      const files = await api.call(ctx, `the files of ${what}`, (github, request) =>
        github.rest.pulls.listFiles({ ...target, per_page: 100, request }),
      );
      const changed = Number((pull.data as unknown as Obj).changed_files ?? 0);
      const shown = files.data as unknown as Obj[];
      const cut = changed > shown.length ? [`[${shown.length} of ${changed} files listed]`] : [];
      return reply([pullDetail(pull.data as unknown as Obj, shown), ...cut], files);
    },
  );

  if (!allowWrite) return;

  server.tool(
    "create_pull_request",
    {
      title: "Open a pull request",
      description: "Opens a pull request from a branch into another (needs a token that may write pull requests).",
      input: z.object({
        owner,
        repo,
        title: z.string().min(1).max(256).describe("The title"),
        head: z.string().min(1).describe('The branch with the changes ("branch", or "user:branch" from a fork)'),
        base: z.string().min(1).describe("The branch to merge into, such as main"),
        body: z.string().max(65_536).describe("The description, in Markdown").optional(),
        draft: z.boolean().describe("Open it as a draft").optional(),
      }),
      annotations: ADDITIVE,
    },
    async (args, ctx) => {
      const answer = await api.call(
        ctx,
        `a pull request from ${args.head} into ${args.base} of ${args.owner}/${args.repo}`,
        (github, request) =>
          github.rest.pulls.create({
            owner: args.owner,
            repo: args.repo,
            title: args.title,
            head: args.head,
            base: args.base,
            body: args.body,
            draft: args.draft,
            request,
          }),
        true,
      );
      const pull = answer.data as unknown as Obj;
      return reply(
        [`Opened pull request #${String(pull.number)}: ${String(pull.title)}`, String(pull.html_url)],
        answer,
      );
    },
  );

  server.tool(
    "create_pull_request_review",
    {
      title: "Review a pull request",
      description: "Approves a pull request, requests changes, or comments on it as a review.",
      input: z.object({
        owner,
        repo,
        pull_number: pullNumber,
        event: z.enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"]).describe("The verdict"),
        body: z.string().max(65_536).describe("The review's text (required to request changes or comment)").optional(),
      }),
      annotations: ADDITIVE,
    },
    async (args, ctx) => {
      const answer = await api.call(
        ctx,
        `a review of ${args.owner}/${args.repo} pull request #${args.pull_number}`,
        (github, request) =>
          github.rest.pulls.createReview({
            owner: args.owner,
            repo: args.repo,
            pull_number: args.pull_number,
            event: args.event,
            body: args.body,
            request,
          }),
        true,
      );
      const review = answer.data as unknown as Obj;
      return reply([`Review ${String(review.state)} on #${args.pull_number}: ${String(review.html_url)}`], answer);
    },
  );

  server.tool(
    "merge_pull_request",
    {
      title: "Merge a pull request",
      description:
        "Merges a pull request into its base branch. This changes the base branch and cannot simply be undone.",
      input: z.object({
        owner,
        repo,
        pull_number: pullNumber,
        merge_method: z.enum(["merge", "squash", "rebase"]).describe("How (default merge)").optional(),
        commit_title: z.string().max(256).describe("The merge commit's title").optional(),
        commit_message: z.string().max(65_536).describe("The merge commit's message").optional(),
        sha: z
          .string()
          .regex(/^[0-9a-f]{40}$/)
          .describe("Merge only if the head is still this commit")
          .optional(),
      }),
      annotations: DESTRUCTIVE,
    },
    async (args, ctx) => {
      const answer = await api.call(
        ctx,
        `the merge of ${args.owner}/${args.repo} pull request #${args.pull_number}`,
        (github, request) =>
          github.rest.pulls.merge({
            owner: args.owner,
            repo: args.repo,
            pull_number: args.pull_number,
            merge_method: args.merge_method,
            commit_title: args.commit_title,
            commit_message: args.commit_message,
            sha: args.sha,
            request,
          }),
        true,
      );
      const merged = answer.data as unknown as Obj;
      return reply(
        [`${String(merged.message)} (#${args.pull_number}, commit ${String(merged.sha).slice(0, 7)})`],
        answer,
      );
    },
  );
}
