import type { OAuthStorage } from "mcpkit/auth";
import { createServer, type McpServer, type ServerOptions } from "mcpkit/server";
import { VERSION } from "../../version.js";
import { gitHubApi } from "./api.js";
import { gitHubAuth } from "./auth.js";
import { registerContentsTool } from "./contents-tool.js";
import { registerIssueTools } from "./issue-tools.js";
import { registerPullTools } from "./pull-tools.js";
import { registerSearchTools } from "./search-tools.js";
import { gitHubOAuth, type OAuthApp } from "./sign-in.js";

export { GitHubError } from "./errors.js";
export type { OAuthApp } from "./sign-in.js";

export const GITHUB_API_URL = "https://api.github.com";

export interface GitHubOptions {
  /** Registers the tools that write: create_issue, add_issue_comment, create_pull_request, create_pull_request_review, merge_pull_request. */
  allowWrite?: boolean;
  /** The REST API (default https://api.github.com; Enterprise Server: https://HOST/api/v3). */
  apiUrl?: string;
  /** A token to act with (GITHUB_TOKEN); without one, reads are anonymous and writes ask for a sign-in. */
  token?: string;
  /** An OAuth app users sign in to when a tool needs a token and there is none. */
  oauth?: OAuthApp & { storage: OAuthStorage };
  /**
   * Act for each caller with their own GitHub sign-in, which mcpkit's authorization server
   * (with GitHub as identity provider) keeps and hands tools as `ctx.auth.upstream`; no
   * token or sign-in of the server's own is used.
   */
  perPerson?: boolean;
  /** How long one GitHub request may take, ms (default 30 000). */
  timeoutMs?: number;
  /**
   * Serve as one node of a cluster (`--redis`), on the bus and key every node shares; with
   * `token` or `perPerson` only (an `oauth` sign-in is one node's: its loopback listener
   * and its stored token).
   */
  cluster?: Pick<ServerOptions, "eventBus" | "requestStateKey">;
  fetch?: typeof fetch;
}

export interface GitHubServer {
  server: McpServer;
  summary: string;
  close(): Promise<void>;
}

/**
 * The GitHub server of the seeds ("search repositories, create issues, manage PRs"), on
 * Octokit: search, files, issues and pull requests; the tools that write only with
 * `allowWrite`. Rate limits and pages are reported as GitHub gives them, and GitHub's
 * errors become tool errors that say what to do.
 */
export async function createGitHubServer(options: GitHubOptions = {}): Promise<GitHubServer> {
  const apiUrl = options.apiUrl ?? GITHUB_API_URL;
  const allowWrite = options.allowWrite ?? false;
  if (options.cluster && options.oauth && !options.perPerson)
    throw new TypeError(
      "A GitHub sign-in (oauth) is one node's, its loopback listener and its stored token: a cluster node needs `token` or `perPerson`",
    );
  const oauth =
    options.oauth &&
    gitHubOAuth({
      apiUrl,
      app: options.oauth,
      storage: options.oauth.storage,
      ...(options.fetch && { fetch: options.fetch }),
    });
  const perPerson = options.perPerson === true;
  const auth = gitHubAuth({ envToken: options.token || undefined, oauth: perPerson ? undefined : oauth, perPerson });
  const api = gitHubApi({
    apiUrl,
    timeoutMs: options.timeoutMs ?? 30_000,
    auth,
    ...(options.fetch && { fetch: options.fetch }),
  });
  const identity = perPerson
    ? "each person's own GitHub sign-in, through the authorization server"
    : options.token
      ? "a token from the environment"
      : (await auth.hasToken())
        ? "a token from an earlier GitHub sign-in"
        : oauth
          ? "no token yet: a tool that needs one asks the user to sign in"
          : "no token: reads are anonymous (60 requests an hour), writes are refused";

  const server = createServer({
    name: "mcpkit-github",
    title: "mcpkit GitHub",
    version: VERSION,
    description: "GitHub: search, files, issues and pull requests",
    instructions: [
      `GitHub at ${apiUrl}, acting with ${identity}.`,
      allowWrite
        ? "Writing is allowed: create_issue, add_issue_comment, create_pull_request, create_pull_request_review, merge_pull_request."
        : "Read-only: the server was started without --allow-write.",
      "Every answer ends with the rate limit left; lists say which page they are and how to get the next.",
    ].join("\n"),
    ...options.cluster,
  });
  registerSearchTools(server, api);
  registerContentsTool(server, api);
  registerIssueTools(server, api, allowWrite);
  registerPullTools(server, api, allowWrite);

  return {
    server,
    summary: [`api: ${apiUrl}`, `auth: ${identity}`, `writes: ${allowWrite ? "allowed" : "off (read-only)"}`].join(
      "\n",
    ),
    close: async () => oauth?.close(),
  };
}
