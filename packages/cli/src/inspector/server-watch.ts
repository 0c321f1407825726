import type { Client } from "mcpkit/client";
import type { Pings } from "./contract/events.js";
import { type Liveness, lostReason, watchLiveness } from "./liveness.js";

/** A liveness ping unanswered this long means the server is gone (the request timeout, if shorter). */
const PING_TIMEOUT_MS = 10_000;

export interface WatchHooks {
  /** Whether the connection is up: pings run only then, and only while a page is open. */
  connected(): boolean;
  answered(pings: Pings): void;
  /** The server stopped answering: `reason` says so in a sentence, `error` is the ping's. */
  lost(reason: string, error: unknown): void;
}

/**
 * Over HTTP nothing tells that the server went away until a request fails: the server
 * is pinged while a page is open, and at once when one of its streams ends or a request
 * gets no HTTP answer (check). One that stops answering is lost, with the reason, as an
 * exited stdio server is.
 */
export class ServerWatch {
  private current: { monitor: Liveness; pings: Pings } | undefined;
  private pageOpen = false;

  constructor(private readonly hooks: WatchHooks) {}

  /** The current connection's pings, while it is watched. */
  get pings(): Pings | undefined {
    return this.current?.pings;
  }

  /** Watches `client` for the connection `mine` says is still the session's. */
  start(client: Client, timeouts: { timeoutMs: number; pingIntervalMs: number }, mine: () => boolean): void {
    const pings: Pings = { intervalMs: timeouts.pingIntervalMs, answered: 0 };
    const timeoutMs = Math.min(PING_TIMEOUT_MS, timeouts.timeoutMs || PING_TIMEOUT_MS);
    const monitor = watchLiveness({
      intervalMs: pings.intervalMs,
      ping: () => client.ping({ timeoutMs }),
      onAnswer: () => {
        if (!mine()) return;
        pings.answered++;
        pings.at = Date.now();
        this.hooks.answered(pings);
      },
      onLost: (error) => {
        // A ping that waited on a sign-in says nothing of the server; the sign-in goes on.
        if (mine() && this.hooks.connected()) this.hooks.lost(lostReason(error), error);
      },
    });
    this.current = { monitor, pings };
    this.update();
  }

  /** A page opened, or the last one closed: with nobody to tell, nothing is pinged. */
  setPageOpen(open: boolean): void {
    this.pageOpen = open;
    this.update();
  }

  /** The status changed: pings run while connected and a page is open. */
  update(): void {
    this.current?.monitor.watch(this.pageOpen && this.hooks.connected());
  }

  /** Something suggests the server went away (a stream ended): a ping at once. */
  check(): void {
    this.current?.monitor.check();
  }

  stop(): void {
    this.current?.monitor.stop();
    this.current = undefined;
  }
}
