import { join } from "node:path";
import { githubOptions } from "@mcpkit/servers/github/options";
import { UsageError } from "@mcpkit/servers/options";
import { installAdvice } from "../install-advice.js";
import { defineFlags } from "./served.js";

/**
 * `mcpkit serve github`: its options are @mcpkit/servers' githubOptions. Secrets come
 * from the environment, never the command line (where `ps` shows them): GITHUB_TOKEN (or
 * GH_TOKEN), GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.
 */
export const flags = defineFlags({
  description: "GitHub: search, files, issues and pull requests",
  exposes: "its GitHub identity",
  // With a token from the environment, or each person's own sign-in kept by the authorization
  // server (in the cluster's Redis); the server's own sign-in (an OAuth app) is one node's.
  cluster: true,
  // Behind --authorization-server github, people grant this server their repositories.
  upstreamScopes: { github: ["repo", "read:user"] },
  options: githubOptions,
  check(values, { cluster, upstream }) {
    if (cluster && values.oauthClientId && upstream !== "github")
      throw new UsageError(
        "serve github --redis cannot use its own GitHub sign-in (GITHUB_OAUTH_CLIENT_ID): the sign-in waits on one node's loopback listener and keeps its token in that node's files. Give every node GITHUB_TOKEN, or let each person sign in with --authorization-server github (their sign-ins are kept in the cluster's Redis)",
      );
  },
  async create(values, { upstream, shared, cluster }) {
    const [{ githubServer, MissingPackageError }, { fileStorage }, { configDir }] = await Promise.all([
      import("@mcpkit/servers/github"),
      import("mcpkit/auth"),
      import("../config/config-dir.js"),
    ]);
    const { allowWrite, apiUrl } = values;
    const common = { allowWrite, ...(apiUrl && { apiUrl }), ...(cluster && { cluster: shared }) };
    const made =
      upstream === "github"
        ? // Each person's own sign-in, kept by the authorization server: no token of the server's own.
          githubServer({ ...common, perPerson: true })
        : // Sign-ins are kept beside mcpkit call's logins, mode 0600.
          githubServer({ ...values, ...common, oauthStorage: fileStorage(join(configDir(), "github-oauth.json")) });
    return made.catch((error: unknown) => {
      // An optional peer: only this server needs it (and what it brings).
      if (error instanceof MissingPackageError)
        throw new Error(
          `serve github needs the ${error.packageName} package, which is not installed: ${installAdvice(error.packageName)}`,
        );
      throw error;
    });
  },
});
