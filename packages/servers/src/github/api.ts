import type { Octokit } from "@octokit/rest";
import type { Context } from "mcpkit/server";
import { MissingPackageError } from "../missing-package.js";
import { VERSION } from "../version.js";
import type { GitHubAuth } from "./auth.js";
import { githubError } from "./errors.js";
import { type RateLimit, rateLimitOf } from "./rate-limit.js";

/** What one GitHub call gave: the data, the Link header (pagination) and the rate limit. */
export interface Answer<T> {
  data: T;
  link: string | undefined;
  rateLimit: RateLimit | undefined;
}

// Octokit logs failed requests itself; the tools report them, so only warnings go to stderr.
const quiet = { debug: () => {}, info: () => {}, warn: console.warn, error: () => {} };

/** @octokit/rest, an optional peer of this package: loaded by the GitHub server only, with what to do when it is missing. */
export async function loadOctokit(): Promise<typeof Octokit> {
  try {
    return (await import("@octokit/rest")).Octokit;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" && String(error).includes("@octokit/rest"))
      throw new MissingPackageError("@octokit/rest", "The GitHub server");
    throw error;
  }
}

/**
 * Octokit, with a request's token, a time limit and the caller's cancellation, and every
 * failure turned into a GitHubError (errors.ts). No retries: a rate limit is reported,
 * not waited out behind the caller's back.
 */
export function gitHubApi(options: {
  Octokit: typeof Octokit;
  apiUrl: string;
  timeoutMs: number;
  auth: GitHubAuth;
  fetch?: typeof fetch;
}) {
  const clients = new Map<string, Octokit>();
  const octokit = (token: string | undefined) => {
    const key = token ?? "";
    let client = clients.get(key);
    if (!client) {
      client = new options.Octokit({
        ...(token && { auth: token }),
        baseUrl: options.apiUrl.replace(/\/+$/, ""),
        userAgent: `mcpkit-github/${VERSION}`,
        log: quiet,
        ...(options.fetch && { request: { fetch: options.fetch } }),
      });
      // Tokens change only when a user signs in again: a handful over a server's life.
      if (clients.size > 8) clients.clear();
      clients.set(key, client);
    }
    return client;
  };

  return {
    apiUrl: options.apiUrl,
    /** Runs `call` against GitHub; `what` names the target in errors; `needsToken` may start a sign-in. */
    async call<T>(
      ctx: Context,
      what: string,
      call: (
        github: Octokit,
        request: { signal: AbortSignal },
      ) => Promise<{ data: T; headers: Record<string, string | number | undefined> }>,
      needsToken = false,
    ): Promise<Answer<T>> {
      const token = await options.auth.token(ctx, needsToken);
      const timeout = AbortSignal.timeout(options.timeoutMs);
      try {
        const response = await call(octokit(token), { signal: AbortSignal.any([ctx.signal, timeout]) });
        const link = response.headers.link;
        return {
          data: response.data,
          link: link === undefined ? undefined : String(link),
          rateLimit: rateLimitOf(response.headers),
        };
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        throw githubError(error, {
          what,
          authenticated: token !== undefined,
          apiUrl: options.apiUrl,
          timedOut: timeout.aborted,
        });
      }
    },
  };
}

export type GitHubApi = ReturnType<typeof gitHubApi>;
