import type { OAuthStorage } from "mcpkit/auth";
import type { ClusterOptions } from "../handle.js";
import { describeOptions, type OptionValues } from "../options/describe.js";
import type { OAuthApp } from "./sign-in.js";

/**
 * The GitHub server's options: `mcpkit serve github`'s flags and environment, a bundle's
 * settings, docs/github.md's table. Secrets come from the environment only, never a flag
 * (where `ps` shows it).
 */
export const githubOptions = describeOptions({
  allowWrite: { type: "switch", help: "register the tools that write" },
  apiUrl: {
    type: "url",
    help: "the REST API (Enterprise Server: https://HOST/api/v3)",
    default: "https://api.github.com",
  },
  oauthScopes: { type: "text", placeholder: "scopes", help: "the scopes a sign-in asks for", default: "repo" },
  token: {
    type: "text",
    secret: true,
    env: ["GITHUB_TOKEN", "GH_TOKEN"],
    help: "a token to act with; without one, reads are anonymous and writes ask for a sign-in",
  },
  oauthClientId: {
    type: "text",
    secret: true,
    env: ["GITHUB_OAUTH_CLIENT_ID"],
    help: "an OAuth app users sign in to when a tool needs a token and there is none (with its secret)",
  },
  oauthClientSecret: {
    type: "text",
    secret: true,
    env: ["GITHUB_OAUTH_CLIENT_SECRET"],
    help: "the OAuth app's client secret",
  },
});

/** What `githubServer` takes: the options above, and what only code can give. */
export interface GitHubOptions extends OptionValues<typeof githubOptions> {
  /** An OAuth app users sign in to (instead of `oauthClientId` and `oauthClientSecret`), with where its tokens are kept. */
  oauth?: OAuthApp & { storage: OAuthStorage };
  /** Where the sign-ins to the `oauthClientId` app are kept (default: in memory, lost on exit). */
  oauthStorage?: OAuthStorage;
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
  cluster?: ClusterOptions;
  fetch?: typeof fetch;
}
