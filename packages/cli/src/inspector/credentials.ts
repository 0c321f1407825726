import type { DPoPKey, OAuthStorage } from "mcpkit/auth";

/** A sign-in's state: tokens and registrations in memory, and the DPoP key they are bound to (RFC 9449). */
export interface SignInStore {
  storage: OAuthStorage;
  dpop: DPoPKey;
}

/**
 * The credentials the inspector holds for HTTP servers, each bound to the origin it was
 * given for: the command line's `-H` headers to the command line's URL's origin, headers
 * and a bearer token typed in the page to the URL they were typed with, a sign-in to the
 * server it signed in to. A connection to another origin gets none of them, whoever asked
 * for it; a connection back to the first origin gets them again.
 */
export class OriginCredentials {
  private readonly headers = new Map<string, Record<string, string>>();
  private readonly signIns = new Map<string, Promise<SignInStore>>();

  constructor(private readonly newSignIn: () => Promise<SignInStore>) {}

  /** The headers for a request to `url`: those given for its origin, or none. */
  headersFor(url: string): Record<string, string> {
    return { ...this.headers.get(originOf(url)) };
  }

  /** The names of the headers held for `url`'s origin (never their values: see redactTarget). */
  headerNames(url: string): string[] {
    return Object.keys(this.headers.get(originOf(url)) ?? {});
  }

  /**
   * Sets headers for `url`'s origin (a header of the same name, in any case, is replaced)
   * and removes those named in `remove`.
   */
  give(url: string, set: Record<string, string>, remove: readonly string[] = []): void {
    const origin = originOf(url);
    const dropped = new Set([...remove, ...Object.keys(set)].map((name) => name.toLowerCase()));
    const kept = Object.entries(this.headers.get(origin) ?? {}).filter(([name]) => !dropped.has(name.toLowerCase()));
    const next = { ...Object.fromEntries(kept), ...set };
    if (Object.keys(next).length === 0) this.headers.delete(origin);
    else this.headers.set(origin, next);
  }

  /** Forgets the sign-in kept for `url`'s origin (its tokens and registration): the next one starts from nothing. */
  forgetSignIn(url: string): void {
    this.signIns.delete(originOf(url));
  }

  /** The sign-in kept for `url`'s origin: made the first time a server there is reached. */
  signInFor(url: string): Promise<SignInStore> {
    const origin = originOf(url);
    let store = this.signIns.get(origin);
    if (!store) {
      store = this.newSignIn();
      this.signIns.set(origin, store);
    }
    return store;
  }
}

/** The origin of an http(s) URL, as a browser compares them (scheme, host, port). */
export const originOf = (url: string): string => new URL(url).origin;
