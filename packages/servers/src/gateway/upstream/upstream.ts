import { createProxy, type McpProxy } from "mcpkit/compose";
import type { UpstreamConfig } from "../config/types.js";
import { connectorFor } from "./connector.js";

/**
 * Where an upstream is: not used yet (idle), starting for the first time, serving (ready),
 * waiting to start again after it exited or failed to (restarting), or stopped for good
 * (a reload removed or replaced it, or the gateway is closing).
 */
export type UpstreamState = "idle" | "starting" | "ready" | "restarting" | "stopped";

/** What GET /healthz says of one upstream. */
export interface UpstreamHealth {
  /** Its name in mcpServers. */
  name: string;
  /** How the gateway reaches it. */
  transport: "stdio" | "http" | "sse";
  /** Where it is now. */
  state: UpstreamState;
  /** Times it was started again after it exited or failed to start. */
  restarts: number;
  /** Whether it runs a process (or connection) per client session. */
  perSession: boolean;
  /** Why it last exited, failed to start or failed a request on its way, in the gateway's words (no command line, no address). */
  lastError?: string;
  /** When that was (ISO 8601). */
  lastErrorAt?: string;
  /** When it entered its state. */
  since: string;
}

export interface UpstreamSettings {
  startTimeoutMs: number;
  /** A perSession upstream's connections (processes) at once. */
  maxUpstreams: number;
  /** How the gateway's client presents itself upstream. */
  client: { name: string; version: string };
}

export interface UpstreamHooks {
  /** The upstream is up (first start or a restart): serve this proxy of it. */
  onReady(proxy: McpProxy): void;
  /** A line for the gateway's log (stderr). */
  log(line: string): void;
  /** What the proxy reports (a list it could not mirror, a name it could not serve). */
  onError(error: unknown): void;
}

/** One upstream server: started on first use, restarted with backoff when it exits. */
export interface Upstream {
  readonly config: UpstreamConfig;
  /** Takes a configuration that reaches it the same way (only what is served of it differs). */
  reconfigure(config: UpstreamConfig): void;
  health(): UpstreamHealth;
  /** Starts it unless it started already; resolves once its first start succeeded or failed (never rejects). */
  ensureStarted(): Promise<void>;
  /** The proxy serving it now, if it is up. */
  readonly proxy: McpProxy | undefined;
  /** Why it last stopped or could not start, in the words of what failed; undefined while it never failed. */
  failure(): { kind: "stopped" | "start"; reason: string } | undefined;
  /** A request to it failed on the way (an HTTP upstream that cannot be reached): /healthz says so, the log once. */
  requestFailed(message: string): void;
  /** Why the given proxy's connection ended, once it has (undefined: it did not end within `waitMs`). */
  exitReason(proxy: McpProxy, waitMs: number): Promise<string | undefined>;
  /** Runs one call on its behalf, counted so that stopping lets it finish. */
  track<T>(work: () => Promise<T>): Promise<T>;
  /** Stops it once the calls in flight have finished (or after `drainMs`). */
  stop(drainMs?: number): Promise<void>;
}

/** Waits after the n-th failure in a row: 1 s, 2 s, 4 s … 30 s at most. */
export const backoffMs = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
/** Up this long, an upstream's earlier failures are forgiven: the next exit waits 1 s again. */
const STABLE_MS = 30_000;

export function createUpstream(initial: UpstreamConfig, settings: UpstreamSettings, hooks: UpstreamHooks): Upstream {
  let config = initial;
  const connector = connectorFor(config, { log: hooks.log });
  let state: UpstreamState = "idle";
  let since = new Date();
  let restarts = 0;
  let failures = 0;
  let lastError: { message: string; at: Date } | undefined;
  let lastFailure: { kind: "stopped" | "start"; reason: string } | undefined;
  let current: McpProxy | undefined;
  let readyAt = 0;
  let firstStart: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const reasons = new WeakMap<McpProxy, Promise<string>>();

  const stopped = () => state === "stopped";
  const enter = (next: UpstreamState) => {
    state = next;
    since = new Date();
  };
  const fail = (message: string) => {
    lastError = { message, at: new Date() };
    hooks.log(`the "${config.name}" server ${message}`);
  };

  async function attempt(): Promise<void> {
    if (state === "stopped") return;
    enter(state === "idle" ? "starting" : "restarting");
    let proxy: McpProxy;
    try {
      proxy = await startProxy();
    } catch (error) {
      lastFailure = { kind: "start", reason: (error as Error).message };
      fail(`could not start: ${lastFailure.reason}`);
      return schedule();
    }
    // Stopped while it started (a reload removed it): what started is closed.
    if (stopped()) {
      await proxy.close();
      return;
    }
    const previous = current;
    current = proxy;
    readyAt = Date.now();
    enter("ready");
    reasons.set(
      proxy,
      proxy.upstreamClosed.then((reason) => reason?.message ?? "closed the connection"),
    );
    hooks.onReady(proxy);
    previous?.close().catch(hooks.onError);
    proxy.upstreamClosed
      .then((reason) => {
        if (state === "stopped" || current !== proxy) return;
        if (Date.now() - readyAt >= STABLE_MS) failures = 0;
        lastFailure = { kind: "stopped", reason: reason?.message ?? "it closed the connection" };
        fail(`stopped: ${lastFailure.reason}; restarting it`);
        schedule();
      })
      .catch(hooks.onError);
  }

  function schedule() {
    if (state === "stopped") return;
    enter("restarting");
    failures += 1;
    timer = setTimeout(() => {
      timer = undefined;
      restarts += 1;
      attempt().catch(hooks.onError);
    }, backoffMs(failures));
    timer.unref();
  }

  /** createProxy within the start timeout; one that answers late is closed. */
  function startProxy(): Promise<McpProxy> {
    const making = createProxy(connector, {
      client: settings.client,
      upstreamSessions: config.perSession ? "per-session" : "shared",
      maxUpstreams: settings.maxUpstreams,
      onError: hooks.onError,
    });
    return new Promise((resolve, reject) => {
      const late = setTimeout(() => {
        reject(new Error(`it did not answer within ${settings.startTimeoutMs} ms`));
        // One that connects after all is closed; one that fails has nothing to close.
        making
          .then(
            (p) => p.close(),
            () => undefined,
          )
          .catch(hooks.onError);
      }, settings.startTimeoutMs);
      making.then(
        (proxy) => {
          clearTimeout(late);
          resolve(proxy);
        },
        (error: unknown) => {
          clearTimeout(late);
          reject(error);
        },
      );
    });
  }

  return {
    get config() {
      return config;
    },
    reconfigure(next) {
      config = next;
    },
    get proxy() {
      return state === "ready" ? current : undefined;
    },
    health: () => ({
      name: config.name,
      transport: config.target.transport,
      state,
      restarts,
      perSession: config.perSession,
      ...(lastError && { lastError: lastError.message, lastErrorAt: lastError.at.toISOString() }),
      since: since.toISOString(),
    }),
    failure: () => lastFailure,
    requestFailed(message) {
      // Logged when it changes: a server down fails every call the same way.
      if (lastError?.message !== message) hooks.log(message);
      lastError = { message, at: new Date() };
    },
    ensureStarted() {
      firstStart ??= attempt();
      return firstStart;
    },
    async exitReason(proxy, waitMs) {
      const reason = reasons.get(proxy);
      if (!reason) return undefined;
      let wait: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        wait = setTimeout(() => resolve(undefined), waitMs);
      });
      try {
        return await Promise.race([reason, timeout]);
      } finally {
        clearTimeout(wait);
      }
    },
    async track(work) {
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
        if (inFlight === 0) drained?.();
      }
    },
    async stop(drainMs = 30_000) {
      if (state === "stopped") return;
      enter("stopped");
      if (timer) clearTimeout(timer);
      if (inFlight > 0)
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, drainMs).unref();
        });
      await current?.close();
    },
  };
}
