/**
 * `@mcpkit/cli/github`, deprecated: the GitHub server is `@mcpkit/servers/github` now.
 * This entry re-exports it, and keeps the old names.
 */
import { githubOptions, githubServer } from "@mcpkit/servers/github";

export * from "@mcpkit/servers/github";

/** @deprecated Use `githubServer` from `@mcpkit/servers/github`. */
export const createGitHubServer = githubServer;

/** @deprecated `githubOptions.apiUrl.default` from `@mcpkit/servers/github`. */
export const GITHUB_API_URL: string = githubOptions.apiUrl.default;
