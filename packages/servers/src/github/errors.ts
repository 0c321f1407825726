import { rateLimitOf, resetTime } from "./rate-limit.js";

/** A failure the person at the client should read: tools report it as an isError result. */
export class GitHubError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitHubError";
  }
}

interface Failure {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
  cause?: unknown;
}

interface Body {
  message?: unknown;
  errors?: { field?: unknown; code?: unknown; message?: unknown; resource?: unknown }[];
  documentation_url?: unknown;
}

/** "Validation Failed: title missing_field" from GitHub's error body. */
function describe(data: unknown): string {
  const body = (typeof data === "object" && data !== null ? data : {}) as Body;
  const message = typeof body.message === "string" ? body.message : "";
  const details = (Array.isArray(body.errors) ? body.errors : [])
    .map((e) =>
      typeof e === "string"
        ? e
        : typeof e.message === "string"
          ? e.message
          : [e.resource, e.field, e.code].filter((x) => typeof x === "string").join(" "),
    )
    .filter(Boolean);
  return [message, ...details].filter(Boolean).join("; ");
}

/** The innermost reason a request failed (fetch wraps the system error, Octokit wraps fetch's). */
function rootCause(error: { cause?: unknown; message?: string }): string {
  let at: { cause?: unknown; code?: unknown; message?: string } = error;
  for (let depth = 0; depth < 5 && at.cause && typeof at.cause === "object"; depth++) at = at.cause as typeof at;
  return typeof at.code === "string" ? at.code : (at.message ?? "unknown error");
}

/**
 * Turns what Octokit threw into a message a person can act on: what GitHub said, and what
 * to do about it (a token, a permission, waiting for the rate limit, narrowing a query).
 * `what` names the thing asked for ("octo-org/hello-world issue #7").
 */
export function githubError(
  error: unknown,
  context: { what: string; authenticated: boolean; apiUrl: string; timedOut?: boolean },
): Error {
  if (error instanceof GitHubError) return error;
  const failure = (error ?? {}) as Failure;
  if (context.timedOut)
    return new GitHubError(`GitHub did not answer within the time limit (${context.what}); try again later.`);
  const headers = failure.response?.headers ?? {};
  const said = describe(failure.response?.data);
  const status = failure.response ? failure.status : undefined;
  if (status === undefined)
    return new GitHubError(`Could not reach GitHub at ${context.apiUrl}: ${rootCause(failure)}.`);
  const limit = rateLimitOf(headers);
  const retryAfter = Number(headers["retry-after"]);
  if ((status === 403 || status === 429) && limit && limit.remaining === 0) {
    const advice = context.authenticated
      ? "Wait until then."
      : "Requests without a token share a small budget (60 an hour); set GITHUB_TOKEN for 5,000 an hour.";
    return new GitHubError(
      `GitHub's rate limit is used up (${limit.resource}: 0 of ${limit.limit} left); it resets at ${resetTime(limit.resetAt)}. ${advice}`,
    );
  }
  if ((status === 403 || status === 429) && Number.isFinite(retryAfter)) {
    return new GitHubError(
      `GitHub's secondary rate limit was hit (${said || "too many requests at once"}); wait ${retryAfter} s before trying again.`,
    );
  }
  if (status === 429)
    return new GitHubError(`GitHub refused: too many requests (${said}). Wait a minute and try again.`);
  if (status === 401) {
    return new GitHubError(
      context.authenticated
        ? `GitHub refused the token (401 ${said || "Bad credentials"}): it is wrong, expired or revoked. Set a new GITHUB_TOKEN, or sign in again.`
        : `GitHub needs a token for this (401 ${said || "Requires authentication"}). Set GITHUB_TOKEN in the server's environment.`,
    );
  }
  if (status === 403) {
    const needs = headers["x-accepted-github-permissions"] ?? headers["x-accepted-oauth-scopes"];
    return new GitHubError(
      `GitHub refused ${context.what} (403 ${said || "Forbidden"}).${needs ? ` The token needs: ${needs}.` : " The token may lack the permission for it."}`,
    );
  }
  if (status === 404) {
    return new GitHubError(
      `Not found: ${context.what}. Check the names; a private repository also looks missing to a token that cannot see it${context.authenticated ? "" : " (this request had no token)"}.`,
    );
  }
  if (status === 422)
    return new GitHubError(`GitHub refused the input for ${context.what} (422 ${said || "Unprocessable"}).`);
  if (status === 405 || status === 409) return new GitHubError(`GitHub refused ${context.what} (${status} ${said}).`);
  if (status >= 500)
    return new GitHubError(`GitHub failed (HTTP ${status}${said ? ` ${said}` : ""}); try again later.`);
  return new GitHubError(`GitHub answered ${status} for ${context.what}${said ? `: ${said}` : ""}.`);
}
