import { createServer, type McpServer, type ServerOptions, type ServerSession } from "mcpkit/server";
import type { LogEmitter } from "./audit/audit-log.js";
import { Auditor } from "./audit/auditor.js";
import { type ConfigDiff, diffConfigs } from "./config/diff.js";
import type { GatewayConfig, UpstreamConfig } from "./config/types.js";
import { type GatewayHealth, healthOf } from "./health.js";
import { type GatewayState, gatewayMiddleware } from "./middleware.js";
import { compilePolicy } from "./policy/policy.js";
import { Surface } from "./surface.js";
import { createUpstream, type Upstream } from "./upstream/upstream.js";
import { GATEWAY_CAPABILITIES, type VirtualServer, virtualServer } from "./virtual.js";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** How gatewayServer runs a configuration: its name, its log, where audit records go besides the file. */
export interface GatewayOptions {
  /** How the gateway names itself to clients and upstreams (default mcpkit-gateway). */
  name?: string;
  /** The version it gives with its name (default 0.1.0). */
  version?: string;
  /** The gateway's log: an upstream's stderr, its exits and restarts, what it could not serve (default: stderr). */
  log?: (line: string) => void;
  /** Where audit records go besides the file: an OpenTelemetry Logger. */
  auditLogger?: LogEmitter;
  /** Server options every served server takes (a cluster's event bus and request-state key). */
  server?: Partial<Pick<ServerOptions, "eventBus" | "requestStateKey" | "tasks">>;
}

/** A running gateway (gatewayServer): its servers, its configuration and upstreams' health, reloading and closing. */
export interface Gateway {
  /** The gateway's server: every upstream's tools, prompts and resources, as the policy lets each principal see them. */
  readonly server: McpServer;
  /** The virtual servers, by path. Changes on reload. */
  virtualServers(): ReadonlyMap<string, McpServer>;
  /** The configuration serving: the last one given to reload, else the first. */
  readonly config: GatewayConfig;
  /** What GET /healthz answers: each upstream's state, restarts and last error. */
  health(): GatewayHealth;
  /** Starts every upstream now instead of on first use. */
  start(): Promise<void>;
  /** Applies a new configuration: adds, removes and changes upstreams while serving; calls in flight finish. */
  reload(config: GatewayConfig): Promise<ConfigDiff>;
  /** Closes its servers (their sessions end), stops every upstream and closes the audit log. */
  close(): Promise<void>;
}

/**
 * One MCP server in front of a team's servers, from a configuration read by
 * `readGatewayConfig`: each upstream's tools and prompts under `<server>_<name>`,
 * resources under its prefix, shown to the principals the policy allows; upstreams
 * started on first use and restarted with backoff; one audit line per call.
 */
export async function gatewayServer(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const name = options.name ?? "mcpkit-gateway";
  const version = options.version ?? "0.1.0";
  const log = options.log ?? ((line: string) => process.stderr.write(`mcpkit gateway: ${line}\n`));
  const onError = (error: unknown) => log(error instanceof Error ? error.message : String(error));
  const auditor = new Auditor(options.auditLogger);
  await auditor.configure(config);
  const upstreams = new Map<string, Upstream>();
  /** The upstream whose proxy is mounted now, by name: the one a call runs on (a replacement may be starting). */
  const serving = new Map<string, Upstream>();
  let current = config;
  let started = false;

  let surface!: Surface;
  const state: GatewayState = {
    get surface() {
      return surface;
    },
    upstream: (n) => serving.get(n) ?? upstreams.get(n),
    ensureStarted: () => startAll(),
    auditor,
    policy: compilePolicy(config.policy),
    rateLimit: config.rateLimit,
  };
  const middleware = gatewayMiddleware(state);
  const serverOptions = {
    ...options.server,
    middleware,
    onError,
    // A client's roots changed: each perSession upstream's process for that session asks again.
    onNotification: (notification: { method: string }, session: ServerSession) => {
      if (notification.method !== "notifications/roots/list_changed") return;
      for (const upstream of serving.values()) upstream.proxy?.rootsChanged(session).catch(onError);
    },
  };
  const server = createServer({ name, version, capabilities: GATEWAY_CAPABILITIES, ...serverOptions });
  surface = new Surface(server, { policy: state.policy, separator: config.separator, onError });
  const virtuals = new Map<string, VirtualServer>();
  /**
   * The virtual servers of the configuration serving: one unchanged keeps its server (and
   * its clients' sessions), one whose tools or prompts changed serves them from the same
   * server; the others are made anew. Returns the servers no longer served, to be closed.
   */
  const syncVirtuals = (): McpServer[] => {
    const closed: McpServer[] = [];
    const wanted = new Map(current.virtualServers.map((vs) => [vs.path, vs]));
    for (const [path, vs] of virtuals)
      if (!wanted.has(path)) {
        virtuals.delete(path);
        closed.push(vs.server);
      }
    for (const [path, config] of wanted) {
      const kept = virtuals.get(path);
      if (kept && (same(kept.config, config) || kept.reselect(config))) continue;
      if (kept) closed.push(kept.server);
      virtuals.set(path, virtualServer(config, server, { name, version, ...serverOptions }));
    }
    return closed;
  };
  syncVirtuals();

  /** An upstream of `upstreamConfig`, served once up; `replaces` is stopped then (its calls finish first). */
  const add = (upstreamConfig: UpstreamConfig, replaces?: Upstream) => {
    const upstream = createUpstream(
      upstreamConfig,
      { startTimeoutMs: current.startTimeoutMs, maxUpstreams: current.maxUpstreams, client: { name, version } },
      {
        log,
        onError,
        onReady: (proxy) => {
          if (upstreams.get(upstreamConfig.name) !== upstream) return;
          surface.serve(upstream.config, proxy);
          serving.set(upstreamConfig.name, upstream);
          if (replaces) void replaces.stop().catch(onError);
          replaces = undefined;
        },
      },
    );
    upstreams.set(upstreamConfig.name, upstream);
    return upstream;
  };
  for (const upstreamConfig of config.upstreams) add(upstreamConfig);

  let starting: Promise<void> | undefined;
  function startAll(): Promise<void> {
    if (!started) {
      started = true;
      starting = Promise.all([...upstreams.values()].map((u) => u.ensureStarted())).then(() => {});
    }
    return starting ?? Promise.resolve();
  }

  return {
    server,
    get config() {
      return current;
    },
    virtualServers: () => new Map([...virtuals].map(([path, vs]) => [path, vs.server])),
    health: () => healthOf([...upstreams.values()].map((u) => u.health())),
    start: startAll,
    async reload(next) {
      const diff = diffConfigs(current, next);
      // First, as it may fail (an audit file another gateway writes): then nothing else has changed.
      if (diff.audit) await auditor.configure(next);
      current = next;
      for (const removed of diff.removed) {
        const upstream = upstreams.get(removed.name);
        upstreams.delete(removed.name);
        surface.remove(removed.name);
        const live = serving.get(removed.name);
        serving.delete(removed.name);
        live?.stop().catch(onError);
        if (upstream !== live) upstream?.stop().catch(onError);
      }
      const fresh: Upstream[] = [];
      for (const added of diff.added) fresh.push(add(added));
      // Started anew beside the one serving, which keeps serving until the new one is up.
      for (const changed of diff.restarted) {
        const replaced = upstreams.get(changed.name);
        // A replacement that never came up is dropped; the one serving is replaced once the new one is up.
        if (replaced && replaced !== serving.get(changed.name)) replaced.stop(0).catch(onError);
        fresh.push(add(changed, serving.get(changed.name)));
      }
      if (diff.separator) surface.setSeparator(next.separator);
      for (const upstream of serving.values()) {
        const proxy = upstream.proxy;
        const reselected = diff.reselected.find((u) => u.name === upstream.config.name);
        if (reselected) upstream.reconfigure(reselected);
        if (proxy && (reselected || diff.separator)) surface.serve(upstream.config, proxy);
      }
      if (diff.policy) {
        state.policy = compilePolicy(next.policy);
        surface.setPolicy(state.policy);
      }
      state.rateLimit = next.rateLimit;
      if (diff.virtualServers) await Promise.all(syncVirtuals().map((s) => s.close()));
      // Clients are being served: what was added starts now, so they hear of its tools.
      if (started) await Promise.all(fresh.map((u) => u.ensureStarted()));
      return diff;
    },
    async close() {
      await Promise.all([...virtuals.values()].map((vs) => vs.server.close()));
      await server.close();
      await Promise.all([...upstreams.values()].map((u) => u.stop(0)));
      await auditor.close();
    },
  };
}
