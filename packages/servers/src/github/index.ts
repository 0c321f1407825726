import { memoryStorage } from "mcpkit/auth";
import { createServer } from "mcpkit/server";
import type { ServerHandle } from "../handle.js";
import { UsageError } from "../options/usage-error.js";
import { VERSION } from "../version.js";
import { gitHubApi, loadOctokit } from "./api.js";
import { gitHubAuth } from "./auth.js";
import { registerContentsTool } from "./contents-tool.js";
import { registerIssueTools } from "./issue-tools.js";
import { type GitHubOptions, githubOptions } from "./options.js";
import { registerPullTools } from "./pull-tools.js";
import { registerSearchTools } from "./search-tools.js";
import { gitHubOAuth } from "./sign-in.js";

export type { ClusterOptions, ServerHandle } from "../handle.js";
export { MissingPackageError } from "../missing-package.js";
export { GitHubError } from "./errors.js";
export { type GitHubOptions, githubOptions } from "./options.js";
export type { OAuthApp } from "./sign-in.js";

/** The GitHub server holds a sign-in's loopback listener while one waits: `close()` stops it. */
export type GitHubServer = ServerHandle;

/**
 * The GitHub server of the seeds ("search repositories, create issues, manage PRs"), on
 * Octokit: search, files, issues and pull requests; the tools that write only with
 * `allowWrite`. Rate limits and pages are reported as GitHub gives them, and GitHub's
 * errors become tool errors that say what to do.
 */
export async function githubServer(options: GitHubOptions = {}): Promise<GitHubServer> {
  const apiUrl = options.apiUrl ?? githubOptions.apiUrl.default;
  const allowWrite = options.allowWrite ?? false;
  const app = options.oauth ?? oauthApp(options);
  if (options.cluster && app && !options.perPerson)
    throw new TypeError(
      "A GitHub sign-in (oauth) is one node's, its loopback listener and its stored token: a cluster node needs `token` or `perPerson`",
    );
  // An optional peer, loaded only by this server.
  const Octokit = await loadOctokit();
  const oauth =
    app &&
    gitHubOAuth({
      apiUrl,
      app,
      storage: app.storage,
      ...(options.fetch && { fetch: options.fetch }),
    });
  const perPerson = options.perPerson === true;
  const auth = gitHubAuth({ envToken: options.token || undefined, oauth: perPerson ? undefined : oauth, perPerson });
  const api = gitHubApi({
    Octokit,
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

/** The OAuth app `oauthClientId` and `oauthClientSecret` describe (both or neither), if any. */
function oauthApp(options: GitHubOptions): GitHubOptions["oauth"] {
  const { oauthClientId: clientId, oauthClientSecret: clientSecret } = options;
  if (Boolean(clientId) !== Boolean(clientSecret))
    throw new UsageError("GitHub sign-in needs both GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET");
  if (!clientId || !clientSecret) return undefined;
  return {
    clientId,
    clientSecret,
    storage: options.oauthStorage ?? memoryStorage(),
    ...(options.oauthScopes !== undefined && { scope: options.oauthScopes }),
  };
}
