import type { Transport } from "mcpkit";
import type { DPoPKey } from "mcpkit/auth";
import type { AuthTrace } from "./auth-trace.js";
import type { NetworkEntry } from "./contract/entries.js";
import type { OriginCredentials, SignInStore } from "./credentials.js";
import { recordingFetch } from "./network-log.js";
import type { Target } from "./target.js";

/** What the transport reports to the session, for the connection it was made for. */
export interface TransportHooks {
  mine(): boolean;
  credentials: OriginCredentials;
  /** Where the sign-in's steps are recorded (the authorization view). */
  authTrace: AuthTrace;
  /** The inspector's OAuth callback URL. */
  redirectUri(): string;
  /** An HTTP exchange started or changed (the same entry comes again as it does). */
  network(entry: NetworkEntry): void;
  /** Shows the sign-in link; resolves with the callback the browser brought back. */
  askToSignIn(url: URL): Promise<URL>;
  signInEnded(error: unknown): void;
  /** A problem the transport survived (a stream to resume), for the logs. */
  transportError(message: string): void;
}

/**
 * A sign-in's store: tokens in memory, and a DPoP key of P-256 for ES256, the algorithm
 * mcpkit's OAuthClient prefers when a server lists it; not extractable, as the tokens bound
 * to it live in memory only.
 */
export async function newSignIn(): Promise<SignInStore> {
  const { memoryStorage } = await import("mcpkit/auth");
  const keyPair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const dpop: DPoPKey = { alg: "ES256", keyPair };
  return { storage: memoryStorage(), dpop };
}

/**
 * The transport to the target: a stdio server's process (its stderr piped, for the logs),
 * or Streamable HTTP (falling back to HTTP+SSE by itself) over a fetch that records every
 * exchange, with the inspector's own sign-in unless the headers carry an Authorization.
 */
export async function makeTransport(target: Target, hooks: TransportHooks): Promise<Transport> {
  if (target.kind === "stdio") {
    const { stdioClientTransport } = await import("mcpkit/stdio");
    return stdioClientTransport({
      command: target.command,
      args: target.args,
      env: target.env,
      ...(target.cwd && { cwd: target.cwd }),
      stderr: "pipe",
    });
  }
  const fetch = recordingFetch(
    (input, init) => globalThis.fetch(input, init),
    (entry) => {
      if (hooks.mine()) hooks.network(entry);
    },
  );
  const ownAuthorization = Object.keys(target.headers).some((name) => name.toLowerCase() === "authorization");
  const { streamableHttpClientTransport } = await import("mcpkit/http-client");
  const { OAuthClient } = await import("mcpkit/auth");
  const signIn = await hooks.credentials.signInFor(target.url);
  const auth = ownAuthorization
    ? undefined
    : new OAuthClient({
        serverUrl: target.url,
        clientName: "mcpkit inspector",
        redirectUri: hooks.redirectUri(),
        redirect: (url) =>
          hooks.mine() ? hooks.askToSignIn(url) : Promise.reject(new Error("The connection was replaced")),
        onSignInEnd: ({ error }) => hooks.signInEnded(error),
        fetch: hooks.authTrace.fetch(fetch, target.url) as typeof globalThis.fetch,
        storage: signIn.storage,
        dpop: signIn.dpop,
      });
  return streamableHttpClientTransport(target.url, {
    headers: target.headers,
    fetch,
    ...(auth && { auth }),
    onError: (error) => {
      if (hooks.mine()) hooks.transportError(error.message);
    },
  });
}
