import { join } from "node:path";
import type { StreamableHttpClientOptions } from "mcpkit/http-client";
import { configDir } from "../../config/config-dir.js";

/** What authorization adds to an HTTP connection, and how to let go of it afterwards. */
export interface HttpAuth {
  /** Spread into the HTTP transport's options. */
  options: Partial<StreamableHttpClientOptions>;
  /** Releases what logging in holds (the loopback listener for the redirect); called once the client closed. */
  close(): void;
}

export interface HttpAuthOptions {
  /** A person is at the terminal: a login may be started. */
  interactive: boolean;
  /** Open the system browser for a login (else only print the URL). */
  browser: boolean;
  /** The user passed their own Authorization header: no OAuth at all. */
  ownAuthorization: boolean;
}

export const tokenFile = () => join(configDir(), "oauth.json");
/** The DPoP key the saved tokens are bound to (commands/call/dpop-key.ts). */
export const dpopKeyFile = () => join(configDir(), "dpop-key.json");

/**
 * basic/authorization for `mcpkit call`: tokens and registrations persist in a 0600 file,
 * and the DPoP key they are bound to in another, so logging in happens once per server. At a terminal, a 401 starts the authorization
 * code flow through a loopback redirect on 127.0.0.1 (RFC 8252), printing the URL and
 * opening the browser; without one, stored tokens (refreshed as needed) are all it uses.
 */
export async function httpAuth(url: URL, options: HttpAuthOptions): Promise<HttpAuth> {
  if (options.ownAuthorization) return { options: {}, close: () => {} };
  // Loaded here, not with this module (which every failure report reads): OAuth and its
  // JOSE library are most of what `mcpkit call` would otherwise load.
  const { fileStorage, loopbackRedirect, OAuthClient } = await import("mcpkit/auth");
  const { keptDPoPKey } = await import("./dpop-key.js");
  const storage = fileStorage(tokenFile());
  // The same key every run, read (or made) only when a server wants DPoP.
  const dpop = () => keptDPoPKey(dpopKeyFile());
  if (!options.interactive) {
    return {
      options: { auth: new OAuthClient({ serverUrl: url, storage, clientName: "mcpkit", dpop }) },
      close: () => {},
    };
  }
  const loopback = await loopbackRedirect({ openBrowser: options.browser });
  const auth = new OAuthClient({
    serverUrl: url,
    storage,
    clientName: "mcpkit",
    dpop,
    redirectUri: loopback.redirectUri,
    redirect: loopback.redirect,
  });
  return { options: { auth }, close: loopback.close };
}

/**
 * The HTTP status when a connection failed because the server wants credentials: 401
 * (authorization §Authorization Server Discovery), or 403 for a token without the scope.
 */
export function authorizationStatus(error: unknown): number | undefined {
  const { data, httpStatus } = (error ?? {}) as { data?: { reason?: unknown; status?: unknown }; httpStatus?: number };
  // A JSON-RPC error in the body keeps the status beside it; any other body is described in data.
  const status = httpStatus ?? (data?.reason === "http-error" ? data.status : undefined);
  return status === 401 || status === 403 ? status : undefined;
}

/** The OAuth step that failed (OAuthError's code), when logging in is what failed. */
export function authorizationFailure(error: unknown): string | undefined {
  const data = (error as { data?: { reason?: unknown; oauthError?: unknown } } | undefined)?.data;
  return data?.reason === "authorization-failed" ? String(data.oauthError ?? "") : undefined;
}

export function authorizationHint(status: number | undefined, failure: string | undefined): string | undefined {
  if (failure === "no_redirect")
    return "Run mcpkit call at a terminal (without --no-interactive) to log in, or pass a token with --header 'Authorization: Bearer TOKEN'.";
  if (failure !== undefined) return `Logins are kept in ${tokenFile()}; delete it to start over.`;
  if (status === 401)
    return "The server refused the credentials (HTTP 401). If you passed a token, check it; without --header, mcpkit call logs in by itself.";
  if (status === 403)
    return "The server refused the credentials (HTTP 403): the token may lack the scope this request needs.";
  return undefined;
}
