import { canonicalResource, loopbackRedirect, OAuthClient, type OAuthStorage } from "mcpkit/auth";

/** A GitHub OAuth App (or GitHub App) that users sign in to. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for (default "repo"). */
  scope?: string;
}

/** GitHub's web origin for an API URL: github.com for api.github.com, else the server itself (Enterprise Server). */
export function webOrigin(apiUrl: string): string {
  const url = new URL(apiUrl);
  return url.hostname === "api.github.com" ? "https://github.com" : url.origin;
}

/**
 * GitHub publishes no OAuth metadata (RFC 8414 / RFC 9728), but mcpkit's OAuth client
 * finds everything through them. This fetch answers those two documents with GitHub's
 * documented endpoints (`/login/oauth/authorize`, `/login/oauth/access_token`) and
 * passes every other request through, so the client's PKCE, state checks, token
 * exchange, refresh and storage serve GitHub unchanged.
 */
function withGitHubMetadata(apiUrl: string, fetchImpl: typeof fetch): { fetch: typeof fetch; issuer: string } {
  const web = webOrigin(apiUrl);
  const issuer = `${web}/login/oauth`;
  const api = new URL(apiUrl);
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
  const wrapped: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin === api.origin && url.pathname.startsWith("/.well-known/oauth-protected-resource"))
      return json({ resource: canonicalResource(api), authorization_servers: [issuer] });
    if (url.origin === web && url.pathname.startsWith("/.well-known/oauth-authorization-server"))
      return json({
        issuer,
        authorization_endpoint: `${web}/login/oauth/authorize`,
        token_endpoint: `${web}/login/oauth/access_token`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      });
    return fetchImpl(input, init);
  };
  return { fetch: wrapped, issuer };
}

/** A sign-in under way: the URL to send the user to, and its end. */
export interface PendingSignIn {
  url: Promise<URL>;
  done: Promise<void>;
  /** GitHub sent the user back: the token is being fetched, and `done` will not wait on the user. */
  readonly returned: boolean;
}

/**
 * Signing in to GitHub through mcpkit's client side of OAuth: the authorization code
 * flow with PKCE, GitHub redirecting to a listener on 127.0.0.1 (RFC 8252), the tokens
 * kept in `storage` (and refreshed, for GitHub Apps whose user tokens expire).
 */
export function gitHubOAuth(options: {
  apiUrl: string;
  app: OAuthApp;
  storage: OAuthStorage;
  fetch?: typeof fetch;
  /** How long a sign-in waits for the browser, ms (default 10 minutes). */
  timeoutMs?: number;
}) {
  const { fetch: metadataFetch, issuer } = withGitHubMetadata(options.apiUrl, options.fetch ?? globalThis.fetch);
  const common = {
    serverUrl: options.apiUrl,
    storage: options.storage,
    fetch: metadataFetch,
    credentials: {
      [issuer]: {
        client_id: options.app.clientId,
        client_secret: options.app.clientSecret,
        token_endpoint_auth_method: "client_secret_post",
      },
    },
    scope: options.app.scope ?? "repo",
    offlineAccess: false,
  };
  const reader = new OAuthClient(common);
  let pending: PendingSignIn | undefined;
  let closeListener: (() => void) | undefined;

  return {
    /** The stored token (refreshed when it is about to expire), if a sign-in happened. */
    token: () => reader.accessToken(),
    /** Starts a sign-in, or joins the one under way: one GitHub identity per server. */
    async signIn(): Promise<PendingSignIn> {
      if (pending) return pending;
      const loopback = await loopbackRedirect({
        openBrowser: false,
        print: () => {},
        timeoutMs: options.timeoutMs ?? 10 * 60_000,
      });
      let showUrl: (url: URL) => void = () => {};
      const url = new Promise<URL>((resolve) => {
        showUrl = resolve;
      });
      let returned = false;
      const client = new OAuthClient({
        ...common,
        redirectUri: loopback.redirectUri,
        redirect: async (authorizationUrl) => {
          showUrl(authorizationUrl);
          const callback = await loopback.redirect(authorizationUrl);
          returned = true;
          return callback;
        },
      });
      closeListener = loopback.close;
      const done = client.authorize().finally(() => {
        loopback.close();
        pending = undefined;
        closeListener = undefined;
      });
      // A sign-in that fails before it has a URL fails the wait for the URL too.
      const started = {
        url: Promise.race([url, done.then(() => url)]),
        done,
        get returned() {
          return returned;
        },
      };
      pending = started;
      done.catch(() => {});
      return started;
    },
    /** The server stops: a sign-in under way fails, and its listener on 127.0.0.1 closes now. */
    close(): void {
      closeListener?.();
    },
  };
}

export type GitHubOAuth = ReturnType<typeof gitHubOAuth>;
