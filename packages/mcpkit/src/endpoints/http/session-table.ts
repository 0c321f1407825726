import { randomBytes } from "node:crypto";
import { clientKey } from "../../connection/client-key.js";
import type { Revision } from "../../protocol/versions.js";
import type { ServerDefinition } from "../../server/definition.js";
import { serveConnection } from "../../server/serve-connection.js";
import type { SessionRecord, SessionStore } from "../../server/session-store.js";
import {
  HttpSessionTransport,
  type SessionTransportOptions,
} from "../../transports/streamable-http/server/session-transport.js";
import { ClusterRelay } from "./cluster-relay.js";
import { type AdmissionLimits, admitSession, type SessionFacts } from "./session-admission.js";
import type { LocalSessions, SessionEntry } from "./session-entry.js";
import { SessionMap } from "./session-map.js";
import { StoreHeartbeat } from "./store-heartbeat.js";
import { StoredSessions } from "./stored-sessions.js";

/** A session id: 32 bytes from a CSPRNG, base64url (visible ASCII, lifecycle §Session Management). */
const newSessionId = () => randomBytes(32).toString("base64url");

export interface SessionTableOptions extends AdmissionLimits {
  idleTimeoutMs: number;
  /** With a store: how often this node says it is alive, ms (it is taken for dead after 3 missed). */
  heartbeatMs?: number;
  /** Shared with other nodes: sessions opened anywhere are served here, and end everywhere. */
  store?: SessionStore;
  transport: Omit<SessionTransportOptions, "onClosed">;
}

/** What a table on a cluster adds: the store as the truth, the relay between nodes, the heartbeat. */
interface Cluster {
  stored: StoredSessions;
  relay: ClusterRelay;
  heartbeat: StoreHeartbeat;
}

/**
 * The legacy sessions of one Streamable HTTP endpoint (transports §Session Management):
 * opened by initialize, found by id for their own principal only, ended by DELETE, by the
 * idle sweep or by close(). With a store, the table is this node's cache of a cluster's
 * sessions (stored-sessions.ts, cluster-relay.ts, store-heartbeat.ts).
 */
export class SessionTable implements LocalSessions {
  readonly entries = new SessionMap();
  private readonly server: ServerDefinition;
  private readonly options: SessionTableOptions;
  private readonly transportOptions: SessionTransportOptions;
  private readonly sweep: ReturnType<typeof setInterval>;
  private readonly cluster: Cluster | undefined;
  /**
   * This node's name among those sharing the store: the prefix of the ids of its requests
   * to clients, so an answer that lands on another node is passed back here. Distinct per
   * process by design (nothing about it must be equal across nodes).
   */
  readonly node = randomBytes(6).toString("base64url");

  constructor(server: ServerDefinition, options: SessionTableOptions) {
    this.server = server;
    this.options = options;
    const store = options.store;
    // However a session ends (DELETE, idle sweep, server.close()), it is forgotten.
    this.transportOptions = {
      ...options.transport,
      sharedStreams: store !== undefined,
      ...(store && { node: this.node, nodeAlive: (node: string) => store.alive(node) }),
      onClosed: (id) => this.entries.delete(id),
    };
    const idle = options.idleTimeoutMs;
    this.sweep = setInterval(() => this.closeIdle(), Math.min(idle, 60_000));
    this.sweep.unref?.();
    if (store) {
      const relay = new ClusterRelay(store, this.node, this);
      const heartbeat = new StoreHeartbeat(store, this.node, options.heartbeatMs ?? 1000, this);
      this.cluster = { relay, heartbeat, stored: new StoredSessions(store, this, idle, heartbeat, relay) };
    }
  }

  get size(): number {
    return this.entries.size;
  }

  readonly report = (error: unknown) => this.server.onError(error);

  /**
   * Makes room for one more session of `client`, ending unused sessions if a cap is
   * reached; says why when there is no room.
   */
  admit(client: string | undefined): string | undefined {
    const verdict = admitSession(this.entries, factsOf, client, this.entries.countOf(client), this.options);
    if ("refuse" in verdict) return verdict.refuse;
    for (const id of verdict.evict) this.end(id).catch(this.report);
    return undefined;
  }

  /** The shared store is out of reach: no session is served until it answers (store-heartbeat.ts). */
  get unavailable(): boolean {
    return this.cluster?.heartbeat.down ?? false;
  }

  /** Whether sessions live in a shared store (the table is this node's cache of a cluster's). */
  get clustered(): boolean {
    return this.cluster !== undefined;
  }

  /**
   * A session of this caller: another principal's session id is no more known than a made-up
   * one. With a store, one held elsewhere is loaded and then held here too (a promise);
   * without one, the answer is at once.
   */
  find(
    id: string,
    principal: string | undefined,
  ): HttpSessionTransport | undefined | Promise<HttpSessionTransport | undefined> {
    if (!this.cluster) {
      const entry = this.entries.get(id);
      return entry !== undefined && entry.principal === principal ? entry.transport : undefined;
    }
    return this.findStored(id, principal);
  }

  private async findStored(id: string, principal: string | undefined): Promise<HttpSessionTransport | undefined> {
    try {
      return await this.lookup(id, principal);
    } catch (error) {
      // The store failed: undefined, and `unavailable` says why (503, not 404).
      if (this.cluster) this.cluster.heartbeat.down = true;
      this.server.onError(error);
      return undefined;
    }
  }

  private async lookup(id: string, principal: string | undefined): Promise<HttpSessionTransport | undefined> {
    const entry = this.entries.get(id);
    const stored = this.cluster?.stored;
    if (entry) {
      if (entry.principal !== principal) return undefined;
      if (stored && !(await stored.stillStored(id, entry))) return undefined;
      return entry.transport;
    }
    const rebuilt = await stored?.load(id);
    return rebuilt && rebuilt.principal === principal ? rebuilt.transport : undefined;
  }

  /** The revision session `id` negotiated, once it has (a session this node holds). */
  revisionOf(id: string): Revision | undefined {
    return this.entries.get(id)?.session.revision;
  }

  /** Opens a session for `principal`; the server serves it in the legacy era only. */
  async open(principal: string | undefined, client?: string): Promise<{ id: string; transport: HttpSessionTransport }> {
    const id = newSessionId();
    const transport = new HttpSessionTransport(id, this.transportOptions);
    const session = await serveConnection(this.server, transport, this.sessionOptions());
    this.entries.set(id, { transport, session, principal, client, savedVersion: 0, touchedAt: Date.now() });
    return { id, transport };
  }

  /** The copy, on this node, of a session opened on another (LocalSessions). */
  async connect(id: string, record: SessionRecord): Promise<SessionEntry> {
    const transport = new HttpSessionTransport(id, this.transportOptions);
    const session = await serveConnection(this.server, transport, { ...this.sessionOptions(), restore: record });
    const entry: SessionEntry = {
      transport,
      session,
      principal: record.principal,
      // Its opener's address is not in the record: a rebuilt copy counts against its principal only.
      client: clientKey(record.principal, undefined),
      savedVersion: session.stateVersion,
      touchedAt: 0, // the first request pushes its expiry back
    };
    this.entries.set(id, entry);
    return entry;
  }

  /**
   * After a request of the session was handled here: saves its record if the request
   * changed it (initialize, logging/setLevel, resources/subscribe…), so other nodes serve
   * it as it now is. Rejects if the store cannot be reached.
   */
  async persist(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (entry && this.cluster) await this.cluster.stored.save(id, entry);
  }

  /**
   * With a store: passes on the client's messages that belong to a request another node
   * handles (cluster-relay.ts). Resolves with what is left to handle here.
   */
  forward(id: string, body: unknown): Promise<unknown> {
    return this.cluster ? this.cluster.relay.forward(id, body) : Promise.resolve(body);
  }

  /** Ends a session: everywhere, with a store. */
  async end(id: string): Promise<void> {
    await this.cluster?.stored.delete(id);
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    await entry.transport.discard();
  }

  /** Waits up to `drainMs` for requests in progress, then ends every session (on this node only, with a store). */
  async closeAll(drainMs: number): Promise<void> {
    clearInterval(this.sweep);
    this.cluster?.heartbeat.stop();
    this.cluster?.stored.stop();
    const deadline = Date.now() + drainMs;
    while (Date.now() < deadline && [...this.entries.values()].some((e) => e.transport.answering)) {
      await new Promise((r) => setTimeout(r, 25));
    }
    if (this.cluster) await Promise.all([...this.entries.values()].map((e) => e.transport.evict()));
    else await Promise.all([...this.entries.keys()].map((id) => this.end(id)));
  }

  private sessionOptions() {
    return this.cluster ? { era: "legacy" as const, requestIdPrefix: `${this.node}.` } : { era: "legacy" as const };
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.options.idleTimeoutMs;
    const stored = this.cluster?.stored;
    for (const [id, entry] of this.entries) {
      const { transport } = entry;
      if (transport.lastActivity < cutoff && !transport.busy) {
        // With a store, only this node's copy goes: the store's expiry decides the session's.
        (stored ? transport.evict() : this.end(id)).catch(this.report);
      } else if (stored && transport.busy) stored.keepAlive(id, entry);
    }
  }
}

const factsOf = ({ transport, client }: SessionEntry): SessionFacts => ({
  client,
  unused: transport.requestCount <= 1 && !transport.busy,
  lastActivity: transport.lastActivity,
});
