import { upstreamToken } from "mcpkit/auth";
import type { Context } from "mcpkit/server";
import { GitHubError } from "./errors.js";
import type { GitHubOAuth, PendingSignIn } from "./sign-in.js";

/**
 * Where a request's GitHub token comes from. Behind mcpkit's authorization server with
 * GitHub as the identity provider (`perPerson`): the caller's own GitHub sign-in, kept by
 * that server (`ctx.auth.upstream`), and nothing else. Otherwise the environment's
 * (GITHUB_TOKEN or GH_TOKEN), else one an earlier sign-in stored. A tool that cannot do without one and finds none
 * asks the user to sign in: through URL-mode elicitation when the client supports it
 * (client/elicitation §URL Mode; a form must never carry a token), else by naming the
 * sign-in URL in the tool's error. Without a configured OAuth app it says how to set a token.
 */
export function gitHubAuth(options: {
  envToken: string | undefined;
  oauth: GitHubOAuth | undefined;
  perPerson?: boolean;
}) {
  const current = async () => options.envToken ?? (await options.oauth?.token());

  async function signIn(ctx: Context): Promise<string> {
    const oauth = options.oauth;
    if (!oauth)
      throw new GitHubError(
        "This needs a GitHub token, and the server has none. Set GITHUB_TOKEN in the server's environment (a fine-grained personal access token with access to the repositories), or set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET to let users sign in.",
      );
    const pending = await oauth.signIn();
    // The user has been to GitHub and back: the sign-in is only fetching the token now.
    if (pending.returned) return finish(pending);
    const url = await pending.url.catch((error: unknown) => {
      throw new GitHubError(
        `GitHub sign-in could not start: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    const elicitation = ctx.client.capabilities.elicitation as { url?: unknown } | undefined;
    if (!elicitation?.url)
      throw new GitHubError(
        `This needs a GitHub token. Sign in to GitHub in a browser at ${url.href} and then call the tool again (the sign-in waits 10 minutes).`,
      );
    const answer = await ctx.elicit({
      mode: "url",
      message: "Sign in to GitHub so this server can act for you.",
      url: url.href,
      key: "github-sign-in",
    });
    if (answer.action !== "accept")
      throw new GitHubError(
        `GitHub sign-in was ${answer.action === "decline" ? "declined" : "cancelled"}; the tool needs a token.`,
      );
    const token = await finish(pending);
    ctx.elicitationComplete(answer.elicitationId);
    return token;
  }

  async function finish(pending: PendingSignIn): Promise<string> {
    await pending.done.catch((error: unknown) => {
      throw new GitHubError(`GitHub sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    const token = await current();
    if (!token) throw new GitHubError("GitHub sign-in finished without a token; try again.");
    return token;
  }

  return {
    /** Whether a token is at hand now (for the server's summary). */
    hasToken: async () => !options.perPerson && (await current()) !== undefined,
    /** The token for a request; with `required`, a missing one starts a sign-in. */
    async token(ctx: Context, required: boolean): Promise<string | undefined> {
      if (options.perPerson) {
        const own = await upstreamToken(ctx.auth, "github");
        if (own) return own;
        throw new GitHubError(
          "This server acts with each person's own GitHub sign-in, and this request carries none: sign in through the server's authorization server.",
        );
      }
      const token = await current();
      if (token || !required) return token;
      return signIn(ctx);
    },
  };
}

export type GitHubAuth = ReturnType<typeof gitHubAuth>;
