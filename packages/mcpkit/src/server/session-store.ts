import type { JsonRpcMessage } from "../jsonrpc/types.js";
import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../protocol/types/common.js";
import type { LegacyRevision } from "../protocol/versions.js";

/**
 * What another node needs to serve a legacy session it did not open: the handshake's
 * outcome and the state the session's requests changed since. Plain JSON, so any store
 * can keep it.
 */
export interface SessionRecord {
  id: string;
  revision: LegacyRevision;
  clientInfo?: Implementation;
  clientCapabilities: ClientCapabilities;
  logLevel?: LogLevel;
  /** resources/subscribe: the URIs the client is subscribed to. */
  subscriptions: string[];
  /** The principal that opened it (absent without authorization): no other may use it. */
  principal?: string;
  /** The client sent notifications/initialized, so the server may send it requests. */
  initialized: boolean;
}

/** Something that happened to a stored session, told to every store sharing its data. */
export type SessionChange =
  /** "saved": its record changed (reload it); "ended": it was deleted (close it). */
  { id: string; kind: "saved" | "ended" } | SessionMessage;

/**
 * A client's message that belongs to a request another node runs (an answer to its
 * elicitation, a cancellation, progress), passed on to that node, or to every node when
 * `to` is absent.
 */
export interface SessionMessage {
  id: string;
  kind: "message";
  /** The node it is for (absent: every node). */
  to?: string;
  /** The node that passed it on. */
  from: string;
  message: JsonRpcMessage;
}

/**
 * Where the legacy sessions of an HTTP endpoint are kept so that any node sharing the
 * store can serve them (transports §Session Management). The endpoint's table holds the
 * live session objects of its node; the store holds their records and their expiry. A
 * record that is not saved or touched for `ttlMs` is gone, without any node sweeping.
 */
export interface SessionStore {
  /** Creates or replaces a record; it expires `ttlMs` from now unless touched. */
  save(record: SessionRecord, ttlMs: number): Promise<void>;
  /** The record, or undefined if it was never saved, was deleted or expired. */
  load(id: string): Promise<SessionRecord | undefined>;
  /** Pushes the expiry to `ttlMs` from now; false if the record is gone. */
  touch(id: string, ttlMs: number): Promise<boolean>;
  /** Deletes a record; true if it existed. Every store sharing the data is told ("ended"). */
  delete(id: string): Promise<boolean>;
  /** Says that `node` is alive for the next `ttlMs` (nodes repeat it well within that time). */
  heartbeat(node: string, ttlMs: number): Promise<void>;
  /** Whether `node` said it was alive within its last heartbeat's ttl. */
  alive(node: string): Promise<boolean>;
  /** Passes a client's message to the node(s) it belongs to: every store's watchers are told. */
  relay(message: SessionMessage): Promise<void>;
  /**
   * Listens for saves, deletions and relayed messages made through any store sharing this one's data
   * (this one included). Returns a function that stops listening.
   */
  watch(listener: (change: SessionChange) => void): () => void;
}

export interface InMemorySessionStoreOptions {
  /** A watcher threw (default: printed to stderr); the others are still told. */
  onError?: (error: unknown) => void;
}

/** One process's sessions: the default, and a model of what a shared store must do. */
export class InMemorySessionStore implements SessionStore {
  private readonly records = new Map<string, { json: string; expires: number }>();
  private readonly listeners = new Set<(change: SessionChange) => void>();
  private readonly nodes = new Map<string, number>();
  private readonly onError: (error: unknown) => void;
  private saves = 0;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.onError =
      options.onError ?? ((error) => process.stderr.write(`mcpkit: session store watcher failed: ${String(error)}\n`));
  }

  async save(record: SessionRecord, ttlMs: number): Promise<void> {
    // Expired records nobody reads again are dropped now and then, not by a timer.
    if (++this.saves % 1024 === 0) for (const id of [...this.records.keys()]) this.live(id);
    // Kept as JSON: a caller's later changes to its object must not leak into the store.
    this.records.set(record.id, { json: JSON.stringify(record), expires: Date.now() + ttlMs });
    this.tell({ id: record.id, kind: "saved" });
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    const entry = this.live(id);
    return entry && (JSON.parse(entry.json) as SessionRecord);
  }

  async touch(id: string, ttlMs: number): Promise<boolean> {
    const entry = this.live(id);
    if (entry) entry.expires = Date.now() + ttlMs;
    return entry !== undefined;
  }

  async delete(id: string): Promise<boolean> {
    const existed = this.live(id) !== undefined;
    this.records.delete(id);
    if (existed) this.tell({ id, kind: "ended" });
    return existed;
  }

  async heartbeat(node: string, ttlMs: number): Promise<void> {
    this.nodes.set(node, Date.now() + ttlMs);
  }

  async alive(node: string): Promise<boolean> {
    return (this.nodes.get(node) ?? 0) > Date.now();
  }

  async relay(message: SessionMessage): Promise<void> {
    this.tell(JSON.parse(JSON.stringify(message)) as SessionMessage);
  }

  watch(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records held, expired ones included until next looked at (for tests and metrics). */
  get size(): number {
    return this.records.size;
  }

  /** Expiry is checked on read: no timer, nothing to race. */
  private live(id: string) {
    const entry = this.records.get(id);
    if (entry && entry.expires <= Date.now()) {
      this.records.delete(id);
      return undefined;
    }
    return entry;
  }

  private tell(change: SessionChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        // One listener's failure must not starve the others.
        this.onError(error);
      }
    }
  }
}
