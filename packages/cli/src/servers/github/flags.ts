import { join } from "node:path";
import { Option } from "commander";
import { fileStorage } from "mcpkit/auth";
import { configDir } from "../../commands/call/auth.js";
import { UsageError } from "../../commands/usage-error.js";
import type { GitHubServer } from "./index.js";

/** Where sign-ins are kept: beside mcpkit call's logins, mode 0600. */
export const gitHubTokenFile = () => join(configDir(), "github-oauth.json");

/**
 * `mcpkit serve github`'s own options, and the server they make. Secrets come from the
 * environment, never the command line (where `ps` shows them): GITHUB_TOKEN (or GH_TOKEN),
 * GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.
 */
export const gitHubFlags = {
  options: [
    new Option(
      "--api-url <url>",
      "github: the REST API (default https://api.github.com; Enterprise: https://HOST/api/v3)",
    ),
    new Option("--oauth-scopes <scopes>", 'github: the scopes a sign-in asks for (default "repo")'),
  ],
  async create(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Promise<GitHubServer> {
    const apiUrl = flags.apiUrl === undefined ? undefined : String(flags.apiUrl);
    if (apiUrl !== undefined && !/^https?:\/\//.test(apiUrl))
      throw new UsageError(`--api-url must be an http(s) URL, not "${apiUrl}"`);
    const clientId = env.GITHUB_OAUTH_CLIENT_ID;
    const clientSecret = env.GITHUB_OAUTH_CLIENT_SECRET;
    if (Boolean(clientId) !== Boolean(clientSecret))
      throw new UsageError("GitHub sign-in needs both GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET");
    // Loaded only when this server is the one served: Octokit stays out of the others' start-up.
    const { createGitHubServer } = await import("./index.js");
    return createGitHubServer({
      allowWrite: flags.allowWrite === true,
      ...(apiUrl && { apiUrl }),
      ...((env.GITHUB_TOKEN || env.GH_TOKEN) && { token: env.GITHUB_TOKEN || env.GH_TOKEN }),
      ...(clientId &&
        clientSecret && {
          oauth: {
            clientId,
            clientSecret,
            storage: fileStorage(gitHubTokenFile()),
            ...(flags.oauthScopes !== undefined && { scope: String(flags.oauthScopes) }),
          },
        }),
    });
  },
};
