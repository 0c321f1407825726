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
  /** Every token and client secret a sign-in stored: left out of what the page downloads. */
  private readonly stored = new Set<string>();

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
      store = this.newSignIn().then((made) => ({ ...made, storage: noting(made.storage, this.stored) }));
      this.signIns.set(origin, store);
    }
    return store;
  }

  /**
   * Every credential the inspector was given or got, whatever its origin: each header's
   * value and each token or client secret a sign-in stored (kept after it is forgotten).
   */
  secrets(): string[] {
    return [...[...this.headers.values()].flatMap((headers) => Object.values(headers)), ...this.stored];
  }
}

/** The origin of an http(s) URL, as a browser compares them (scheme, host, port). */
export const originOf = (url: string): string => new URL(url).origin;

/** Keys under which a sign-in stores what is secret: access_token, refresh_token, client_secret (not token_type). */
const SECRET_KEY = /(token|secret)$/i;

/** A storage that notes each secret value stored in it (a token response, a registration) into `into`. */
function noting(storage: OAuthStorage, into: Set<string>): OAuthStorage {
  const note = (value: unknown, depth: number): void => {
    if (depth > 8 || typeof value !== "object" || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === "string" && SECRET_KEY.test(key) && item !== "") into.add(item);
      else note(item, depth + 1);
    }
  };
  return {
    get: (key) => storage.get(key),
    set: (key, value) => {
      note(value, 0);
      return storage.set(key, value);
    },
    delete: (key) => storage.delete(key),
  };
}
