import { randomBytes } from "node:crypto";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { LegacySession } from "../../server/eras/legacy.js";
import type { McpServer } from "../../server/server.js";
import type { SessionChange, SessionMessage, SessionRecord, SessionStore } from "../../server/session-store.js";
import { clientKey } from "../../session/client-key.js";
import {
  HttpSessionTransport,
  type SessionTransportOptions,
} from "../../transports/streamable-http/server/session-transport.js";
import { type AdmissionLimits, admitSession, type SessionFacts } from "./session-admission.js";

/** A session id: 32 bytes from a CSPRNG, base64url (visible ASCII, lifecycle §Session Management). */
const newSessionId = () => randomBytes(32).toString("base64url");

interface Entry {
  /** A session is its transport: closing the transport ends the server session with it. */
  transport: HttpSessionTransport;
  session: LegacySession;
  /** Who opened it: later requests must come from the same principal. */
  principal: string | undefined;
  /** Whom it counts against (session-admission.ts). */
  client: string | undefined;
  /** The session's stateVersion the store holds. */
  savedVersion: number;
  /** When the store's expiry was last pushed back (Date.now()). */
  touchedAt: number;
}

export interface SessionTableOptions extends AdmissionLimits {
  idleTimeoutMs: number;
  /** With a store: how often this node says it is alive, ms (it is taken for dead after 3 missed). */
  heartbeatMs?: number;
  /** Shared with other nodes: sessions opened anywhere are served here, and end everywhere. */
  store?: SessionStore;
  transport: Omit<SessionTransportOptions, "onClosed">;
}

/**
 * The legacy sessions of one Streamable HTTP endpoint (transports §Session Management):
 * opened by initialize, found by id for their own principal only, ended by DELETE, by the
 * idle sweep or by close().
 *
 * With a store (a cluster), this table is the node's cache of live session objects and
 * the store is the truth: a session unknown here is rebuilt from its record, a change of
 * its state is saved, DELETE on any node closes every node's copy, and idle expiry is the
 * store's (the local sweep only drops copies nobody uses here).
 */
export class SessionTable {
  private readonly entries = new Map<string, Entry>();
  private readonly server: McpServer;
  private readonly options: SessionTableOptions;
  private readonly transportOptions: SessionTransportOptions;
  private readonly sweep: ReturnType<typeof setInterval>;
  private readonly store: SessionStore | undefined;
  private readonly stopWatching: (() => void) | undefined;
  private readonly beat: ReturnType<typeof setInterval> | undefined;
  /** The store failed this node's last heartbeat: its copies may be stale. */
  private storeDown = false;
  private resyncing = false;
  /** Rebuilds in progress, so concurrent requests for one session build one copy. */
  private readonly rebuilding = new Map<string, Promise<Entry | undefined>>();
  /** Saves of ours not yet echoed back by the store's watch (not worth a reload). */
  private readonly ownSaves = new Map<string, number>();
  /**
   * This node's name among those sharing the store: the prefix of the ids of its requests
   * to clients, so an answer that lands on another node is passed back here. Distinct per
   * process by design (nothing about it must be equal across nodes).
   */
  readonly node = randomBytes(6).toString("base64url");

  constructor(server: McpServer, options: SessionTableOptions) {
    this.server = server;
    this.options = options;
    this.store = options.store;
    // However a session ends (DELETE, idle sweep, server.close()), it is forgotten.
    const store = this.store;
    this.transportOptions = {
      ...options.transport,
      sharedStreams: store !== undefined,
      ...(store && { node: this.node, nodeAlive: (node: string) => store.alive(node) }),
      onClosed: (id) => this.entries.delete(id),
    };
    const idle = options.idleTimeoutMs;
    this.sweep = setInterval(() => this.closeIdle(), Math.min(idle, 60_000));
    this.sweep.unref?.();
    this.stopWatching = this.store?.watch((change) => this.changed(change));
    if (store) {
      // Other nodes learn from it whether a request this node runs can still be answered.
      const every = options.heartbeatMs ?? 1000;
      // A failed beat is not reported: the store's own connection reports an outage once,
      // and to the other nodes this node is then rightly as good as dead.
      const beat = () => {
        store
          .heartbeat(this.node, every * 3)
          .then(
            () => this.storeReached(),
            () => {
              this.storeDown = true;
            },
          )
          .catch(this.report);
      };
      beat();
      this.beat = setInterval(beat, every);
      this.beat.unref?.();
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Work started and not awaited fails here: to the server's onError, never unhandled. */
  private readonly report = (error: unknown) => this.server.onError(error);

  /**
   * Makes room for one more session of `client`, ending unused sessions if a cap is
   * reached; says why when there is no room.
   */
  admit(client: string | undefined): string | undefined {
    const verdict = admitSession(this.entries, factsOf, client, this.options);
    if ("refuse" in verdict) return verdict.refuse;
    for (const id of verdict.evict) this.end(id).catch(this.report);
    return undefined;
  }

  /**
   * The shared store is out of reach: this node can neither open sessions others could
   * serve nor know that its copies are current (another node may have ended or changed
   * them), so it serves no session until the store answers again.
   */
  get unavailable(): boolean {
    return this.storeDown;
  }

  /**
   * A session of this caller: another principal's session id is as unknown as a made-up
   * one. With a store, a session held here costs a store round trip only when its expiry
   * is due to be pushed back (once per quarter of the idle timeout); one held elsewhere
   * costs a load and is then held here too.
   */
  async find(id: string, principal: string | undefined): Promise<HttpSessionTransport | undefined> {
    try {
      return await this.lookup(id, principal);
    } catch (error) {
      // The store failed: undefined, and `unavailable` says why (503, not 404).
      this.storeDown = true;
      this.server.onError(error);
      return undefined;
    }
  }

  private async lookup(id: string, principal: string | undefined): Promise<HttpSessionTransport | undefined> {
    const entry = this.entries.get(id);
    if (entry) {
      if (entry.principal !== principal) return undefined;
      if (this.store && Date.now() - entry.touchedAt > this.options.idleTimeoutMs / 4) {
        entry.touchedAt = Date.now();
        if (!(await this.store.touch(id, this.ttl))) {
          // Expired or deleted while this node was not told: the copy goes too.
          await entry.transport.evict();
          return undefined;
        }
      }
      return entry.transport;
    }
    if (!this.store) return undefined;
    let pending = this.rebuilding.get(id);
    if (!pending) {
      pending = this.rebuild(id).finally(() => this.rebuilding.delete(id));
      this.rebuilding.set(id, pending);
    }
    const rebuilt = await pending;
    return rebuilt && rebuilt.principal === principal ? rebuilt.transport : undefined;
  }

  /** Opens a session for `principal`; the server serves it in the legacy era only. */
  async open(principal: string | undefined, client?: string): Promise<{ id: string; transport: HttpSessionTransport }> {
    const id = newSessionId();
    const transport = new HttpSessionTransport(id, this.transportOptions);
    const session = (await this.server.connect(transport, this.sessionOptions())) as LegacySession;
    this.entries.set(id, { transport, session, principal, client, savedVersion: 0, touchedAt: Date.now() });
    return { id, transport };
  }

  /**
   * After a request of the session was handled here: saves its record if the request
   * changed it (initialize, logging/setLevel, resources/subscribe…), so other nodes serve
   * it as it now is. Rejects if the store cannot be reached.
   */
  async persist(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry || !this.store || entry.session.stateVersion === entry.savedVersion) return;
    const version = entry.session.stateVersion;
    const record = entry.session.record(entry.principal);
    if (!record) return;
    this.ownSaves.set(id, (this.ownSaves.get(id) ?? 0) + 1);
    try {
      await this.store.save(record, this.ttl);
    } catch (error) {
      this.storeDown = true;
      throw error;
    }
    entry.savedVersion = version;
    entry.touchedAt = Date.now();
  }

  /**
   * With a store: passes on the client's messages that belong to a request another node
   * handles (the answer to its elicitation, sampling or roots request, or progress on
   * it), and a cancellation to every node (the request may run on any; it is handled
   * here too). Resolves with what is left to handle here: the body, the rest of a batch,
   * or undefined when everything went elsewhere.
   */
  async forward(id: string, body: unknown): Promise<unknown> {
    if (!this.store) return body;
    if (!Array.isArray(body)) return (await this.forwardOne(id, body)) ? undefined : body;
    const rest: unknown[] = [];
    for (const message of body) if (!(await this.forwardOne(id, message))) rest.push(message);
    return rest.length === 0 ? undefined : rest.length === body.length ? body : rest;
  }

  /** True when the message went to another node only. */
  private async forwardOne(id: string, value: unknown): Promise<boolean> {
    if (typeof value !== "object" || value === null) return false;
    const store = this.store as SessionStore;
    const message = value as JsonRpcMessage;
    const method = "method" in message ? message.method : undefined;
    if (method === "notifications/cancelled") {
      await store.relay({ id, kind: "message", from: this.node, message });
      return false;
    }
    const token =
      method === undefined
        ? (message as { id?: unknown }).id
        : method === "notifications/progress"
          ? (message as { params?: { progressToken?: unknown } }).params?.progressToken
          : undefined;
    const to = typeof token === "string" ? token.slice(0, token.indexOf(".")) : "";
    if (to === "" || to === this.node) return false;
    await store.relay({ id, kind: "message", to, from: this.node, message });
    return true;
  }

  /** Ends a session: everywhere, with a store. */
  async end(id: string): Promise<void> {
    await this.store?.delete(id);
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    await entry.transport.discard();
  }

  /** Waits up to `drainMs` for requests in progress, then ends every session (on this node only, with a store). */
  async closeAll(drainMs: number): Promise<void> {
    clearInterval(this.sweep);
    clearInterval(this.beat);
    this.stopWatching?.();
    const deadline = Date.now() + drainMs;
    while (Date.now() < deadline && [...this.entries.values()].some((e) => e.transport.answering)) {
      await new Promise((r) => setTimeout(r, 25));
    }
    if (this.store) await Promise.all([...this.entries.values()].map((e) => e.transport.evict()));
    else await Promise.all([...this.entries.keys()].map((id) => this.end(id)));
  }

  /**
   * The store keeps a record a little longer than the idle timeout: its expiry is pushed
   * back at most once per quarter of it, so a session used all along never lapses.
   */
  private get ttl(): number {
    return Math.ceil(this.options.idleTimeoutMs * 1.25);
  }

  private sessionOptions() {
    return this.store ? { era: "legacy" as const, requestIdPrefix: `${this.node}.` } : { era: "legacy" as const };
  }

  /**
   * The store answers again: copies kept through the outage may have missed changes, so
   * each is checked against its record (requests in progress carry on): one ended or
   * expired meanwhile is closed, one changed elsewhere reloaded. Until then, none is served.
   */
  private storeReached(): void {
    if (!this.storeDown || this.resyncing) return;
    this.resyncing = true;
    const store = this.store as SessionStore;
    const checks = [...this.entries].map(async ([id, entry]) => {
      const record = await store.load(id);
      if (this.entries.get(id) !== entry) return;
      if (!record) {
        this.entries.delete(id);
        await entry.transport.discard();
      } else {
        entry.session.restore(record);
        entry.savedVersion = entry.session.stateVersion;
      }
    });
    Promise.all(checks).then(
      () => {
        this.storeDown = false;
        this.resyncing = false;
      },
      () => {
        this.resyncing = false; // still unreachable: the next heartbeat tries again
      },
    );
  }

  private async rebuild(id: string): Promise<Entry | undefined> {
    const store = this.store as SessionStore;
    const record = await store.load(id);
    if (!record) return undefined;
    const existing = this.entries.get(id);
    if (existing) return existing;
    const transport = new HttpSessionTransport(id, this.transportOptions);
    const session = (await this.server.connect(transport, {
      ...this.sessionOptions(),
      restore: record,
    })) as LegacySession;
    const entry: Entry = {
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

  /** Another node (or this one) changed or ended a session: this node's copy follows. */
  private changed(change: SessionChange): void {
    if (change.kind === "message") {
      this.relayed(change);
      return;
    }
    const entry = this.entries.get(change.id);
    if (change.kind === "saved") {
      const own = this.ownSaves.get(change.id);
      if (own !== undefined) {
        if (own <= 1) this.ownSaves.delete(change.id);
        else this.ownSaves.set(change.id, own - 1);
        return;
      }
    }
    if (!entry) return;
    if (change.kind === "ended") {
      // Ended everywhere: this copy's streams go too.
      this.entries.delete(change.id);
      entry.transport.discard().catch(this.report);
      return;
    }
    this.reload(entry, change.id).catch(this.report);
  }

  /** A client's message another node received for a request of this one. */
  private relayed(relayed: SessionMessage): void {
    if (relayed.from === this.node || (relayed.to !== undefined && relayed.to !== this.node)) return;
    const entry = this.entries.get(relayed.id);
    if (!entry) return;
    entry.transport.post(relayed.message, [], {}).catch(this.report);
  }

  private async reload(entry: Entry, id: string): Promise<void> {
    try {
      const record: SessionRecord | undefined = await (this.store as SessionStore).load(id);
      if (!record) return;
      entry.session.restore(record);
      entry.savedVersion = entry.session.stateVersion;
    } catch (error) {
      this.server.onError(error);
    }
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.options.idleTimeoutMs;
    for (const [id, entry] of this.entries) {
      const { transport } = entry;
      if (transport.lastActivity < cutoff && !transport.busy) {
        // With a store, only this node's copy goes: the store's expiry decides the session's.
        (this.store ? transport.evict() : this.end(id)).catch(this.report);
      } else if (this.store && transport.busy && Date.now() - entry.touchedAt > this.options.idleTimeoutMs / 4) {
        // An open stream is activity the store cannot see: keep the record alive.
        entry.touchedAt = Date.now();
        this.store.touch(id, this.ttl).catch(this.report);
      }
    }
  }
}

const factsOf = ({ transport, client }: Entry): SessionFacts => ({
  client,
  unused: transport.requestCount <= 1 && !transport.busy,
  lastActivity: transport.lastActivity,
});
