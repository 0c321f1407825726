import { join } from "node:path";
import { Option } from "commander";
import { UsageError } from "../../commands/usage-error.js";
import type { ServerFlags } from "../served.js";

/**
 * `mcpkit serve github`'s own options, and the server they make. Secrets come from the
 * environment, never the command line (where `ps` shows them): GITHUB_TOKEN (or GH_TOKEN),
 * GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.
 */
export const flags: ServerFlags = {
  description: "GitHub: search, files, issues and pull requests",
  exposes: "its GitHub identity",
  // With a token from the environment, or each person's own sign-in kept by the authorization
  // server (in the cluster's Redis); the server's own sign-in (an OAuth app) is one node's.
  cluster: true,
  // Behind --authorization-server github, people grant this server their repositories.
  upstreamScopes: { github: ["repo", "read:user"] },
  options: () => [
    new Option("--allow-write", "register the tools that write"),
    new Option("--api-url <url>", "the REST API (default https://api.github.com; Enterprise: https://HOST/api/v3)"),
    new Option("--oauth-scopes <scopes>", 'the scopes a sign-in asks for (default "repo")'),
  ],
  check(_values, { cluster, upstream }) {
    if (cluster && process.env.GITHUB_OAUTH_CLIENT_ID && upstream !== "github")
      throw new UsageError(
        "serve github --redis cannot use its own GitHub sign-in (GITHUB_OAUTH_CLIENT_ID): the sign-in waits on one node's loopback listener and keeps its token in that node's files. Give every node GITHUB_TOKEN, or let each person sign in with --authorization-server github (their sign-ins are kept in the cluster's Redis)",
      );
  },
  async create(values, { upstream, shared, cluster }) {
    const env = process.env;
    const apiUrl = values.apiUrl === undefined ? undefined : String(values.apiUrl);
    if (apiUrl !== undefined && !/^https?:\/\//.test(apiUrl))
      throw new UsageError(`--api-url must be an http(s) URL, not "${apiUrl}"`);
    const clientId = env.GITHUB_OAUTH_CLIENT_ID;
    const clientSecret = env.GITHUB_OAUTH_CLIENT_SECRET;
    if (Boolean(clientId) !== Boolean(clientSecret))
      throw new UsageError("GitHub sign-in needs both GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET");
    // Loaded only when this server is the one served: Octokit stays out of the others' start-up.
    const [{ createGitHubServer }, { fileStorage }, { configDir }] = await Promise.all([
      import("./index.js").catch((error: NodeJS.ErrnoException) => {
        // An optional peer: only this server needs it (and what it brings).
        if (error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("@octokit/rest"))
          throw new Error(
            "serve github needs the @octokit/rest package: npm install @octokit/rest (beside @mcpkit/cli)",
          );
        throw error;
      }),
      import("mcpkit/auth"),
      import("../../commands/call/auth.js"),
    ]);
    if (upstream === "github") {
      return createGitHubServer({
        allowWrite: values.allowWrite === true,
        ...(apiUrl && { apiUrl }),
        perPerson: true,
        ...(cluster && { cluster: shared }),
      });
    }
    return createGitHubServer({
      allowWrite: values.allowWrite === true,
      ...(apiUrl && { apiUrl }),
      ...(cluster && { cluster: shared }),
      ...((env.GITHUB_TOKEN || env.GH_TOKEN) && { token: env.GITHUB_TOKEN || env.GH_TOKEN }),
      ...(clientId &&
        clientSecret && {
          oauth: {
            clientId,
            clientSecret,
            // Sign-ins are kept beside mcpkit call's logins, mode 0600.
            storage: fileStorage(join(configDir(), "github-oauth.json")),
            ...(values.oauthScopes !== undefined && { scope: String(values.oauthScopes) }),
          },
        }),
    });
  },
};
