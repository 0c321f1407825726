import type { Status } from "./contract/events.js";

export interface SignInHooks {
  status(): Status;
  setStatus(status: Status, error?: string): void;
  /** The connection is lost for `reason`. */
  lose(reason: string): void;
}

/**
 * basic/authorization, as the page lives it: the page shows a sign-in link; the callback
 * comes back to the inspector. A sign-in may come while connecting (the first request got
 * 401) or once connected (a token expired or was revoked, a tool needs another scope).
 */
export class SignInFlow {
  /** The link the page shows, while a sign-in waits for the person. */
  url: string | undefined;
  /** The sign-in the page shows a link for; `from` is the status it interrupted. */
  private pending: { resolve: (url: URL) => void; reject: (error: Error) => void; from: Status } | undefined;
  /**
   * A sign-in the browser came back from, its tokens not yet there: the status it
   * interrupted, which it returns to once they are (see ended).
   */
  private completing: Status | undefined;

  constructor(private readonly hooks: SignInHooks) {}

  /** OAuthClient's redirect: shows the link, and resolves with the callback the browser brings back. */
  ask(url: URL): Promise<URL> {
    return new Promise<URL>((resolve, reject) => {
      this.pending = { resolve, reject, from: this.hooks.status() };
      this.url = url.href;
      this.hooks.setStatus("signing-in");
    });
  }

  /**
   * The authorization server sent the browser back to the inspector's callback: connecting
   * until the code is exchanged for tokens (ended says how that went). False when no
   * sign-in waits for it.
   */
  finish(callback: URL): boolean {
    const pending = this.pending;
    if (!pending) return false;
    this.pending = undefined;
    this.url = undefined;
    this.completing = pending.from;
    this.hooks.setStatus("connecting");
    pending.resolve(callback);
    return true;
  }

  /**
   * The sign-in is over (OAuthClient's onSignInEnd). One that interrupted a live
   * connection returns it to Connected, pings and all, with the tokens stored and the
   * requests that waited on them sent again; one that failed ends it, with the reason, as
   * nothing can reach the server without a token. A sign-in during connect() is left to
   * connect(), which goes on, or fails with the same error.
   */
  ended(error: unknown, mine: () => boolean): void {
    const from = this.completing;
    this.completing = undefined;
    if (!mine() || from !== "connected") return;
    if (error === undefined) {
      this.hooks.setStatus("connected");
      return;
    }
    const reason = `The sign-in failed: ${error instanceof Error ? error.message : String(error)}`;
    this.hooks.setStatus("disconnected", reason);
    // The requests that waited on the sign-in fail with its error first (promise callbacks
    // only): closed at once, they would say no more than "Connection closed".
    setImmediate(() => {
      if (mine()) this.hooks.lose(reason);
    });
  }

  /** The connection is closed or replaced: a sign-in waiting is abandoned. */
  abandon(): void {
    this.pending?.reject(new Error("The sign-in was abandoned: the inspector reconnected"));
    this.pending = undefined;
    this.url = undefined;
    this.completing = undefined;
  }
}
