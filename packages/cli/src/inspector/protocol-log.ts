import type { ProtocolEntry } from "./contract/entries.js";

export type { ProtocolEntry };

/** Larger messages are kept as a preview: the view is for reading, and it must stay bounded. */
const KEEP_BYTES = 256 * 1024;
const PREVIEW_CHARS = 4096;
/** The requests a legacy server's own request is taken to be part of. */
const NESTING = new Set(["tools/call", "prompts/get", "resources/read", "completion/complete", "tasks/result"]);

/** The `_meta` key a 2026-07-28 server tags a subscription's notifications with. */
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

interface Open {
  group: number;
  at: number;
  method: string;
}

/** Where a connection began in the log: the seq of its first message, and its target in words. */
interface Connection {
  from: number;
  target: string;
}

/**
 * Every message both ways, numbered, with its exchange worked out: answers find their
 * requests by id, progress finds its request by token, a retried 2026-07-28 request finds
 * the input_required result whose requestState it carries. Keeps the last `limit`, and
 * where each connection began (a recording is one connection's, from its first message).
 */
export class ProtocolLog {
  readonly entries: ProtocolEntry[] = [];
  private connections: Connection[] = [];
  private seq = 0;
  private groups = 0;
  private readonly sent = new Map<string | number, Open>();
  private readonly received = new Map<string | number, Open>();
  private readonly byToken = new Map<string | number, number>();
  private readonly byState = new Map<string, { group: number; round: number }>();
  private readonly roundOf = new Map<number, number>();

  constructor(private readonly limit = 5000) {}

  /** Records a message (each element of a batch on its own) and returns the new entries. */
  record(dir: "out" | "in", value: unknown, at = Date.now()): ProtocolEntry[] {
    const messages = Array.isArray(value) ? value : [value];
    const made = messages.map((message) => this.entry(dir, message, at));
    this.entries.push(...made);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    return made;
  }

  /** A new connection to `target` begins: the exchanges in flight are forgotten (the entries stay). */
  begin(target: string): void {
    this.sent.clear();
    this.received.clear();
    this.byToken.clear();
    this.byState.clear();
    this.connections.push({ from: this.seq + 1, target });
    // Connections whose messages have all left the log are forgotten too.
    const oldest = this.entries[0]?.seq ?? this.seq + 1;
    while ((this.connections[1]?.from ?? Number.POSITIVE_INFINITY) <= oldest) this.connections.shift();
  }

  /**
   * The messages of the last connection, from its first (none before one began): undefined
   * when the log no longer holds its beginning (it keeps the last `limit`).
   */
  lastConnection(): ProtocolEntry[] | undefined {
    const last = this.connections.at(-1);
    if (!last) return [];
    const oldest = this.entries[0]?.seq;
    if (this.seq >= last.from && oldest !== undefined && oldest > last.from) return undefined;
    return this.entries.filter((e) => e.seq >= last.from);
  }

  /** The messages kept of every connection to the last connection's target. */
  sameTarget(): ProtocolEntry[] {
    const target = this.connections.at(-1)?.target;
    if (target === undefined) return [];
    let at = 0;
    return this.entries.filter((e) => {
      while ((this.connections[at + 1]?.from ?? Number.POSITIVE_INFINITY) <= e.seq) at++;
      return this.connections[at]?.target === target && e.seq >= (this.connections[at]?.from ?? 0);
    });
  }

  private entry(dir: "out" | "in", message: unknown, at: number): ProtocolEntry {
    const text = JSON.stringify(message) ?? "";
    const entry: ProtocolEntry = { seq: ++this.seq, at, dir, kind: "invalid", bytes: Buffer.byteLength(text), message };
    if (text.length > KEEP_BYTES) {
      entry.message = `${text.slice(0, PREVIEW_CHARS)}…`;
      entry.truncated = true;
    }
    if (!isObject(message)) return entry;
    const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : undefined;
    if (id !== undefined) entry.id = id;
    const params = isObject(message.params) ? message.params : undefined;
    if (typeof message.method === "string") {
      entry.method = message.method;
      if (id === undefined) {
        entry.kind = "notification";
        this.placeNotification(entry, message.method, params);
      } else {
        entry.kind = "request";
        this.placeRequest(entry, dir, message.method, id, params, at);
      }
      return entry;
    }
    if (id === undefined || !("result" in message || "error" in message)) return entry;
    entry.kind = "error" in message ? "error" : "response";
    const open = (dir === "in" ? this.sent : this.received).get(id);
    if (!open) return entry;
    (dir === "in" ? this.sent : this.received).delete(id);
    entry.group = open.group;
    entry.method = open.method;
    entry.latencyMs = at - open.at;
    const result = message.result;
    // basic/patterns/mrtr: the retry that answers this result carries its requestState.
    if (isObject(result) && result.resultType === "input_required" && typeof result.requestState === "string")
      this.byState.set(result.requestState, { group: open.group, round: this.roundOf.get(open.group) ?? 1 });
    return entry;
  }

  private placeRequest(
    entry: ProtocolEntry,
    dir: "out" | "in",
    method: string,
    id: string | number,
    params: Json | undefined,
    at: number,
  ): void {
    if (dir === "out") {
      const state = typeof params?.requestState === "string" ? this.byState.get(params.requestState) : undefined;
      const group = state?.group ?? ++this.groups;
      const round = state ? state.round + 1 : 1;
      this.roundOf.set(group, round);
      entry.group = group;
      entry.round = round;
      this.sent.set(id, { group, at, method });
      const token = isObject(params?._meta) ? params._meta.progressToken : undefined;
      if (typeof token === "string" || typeof token === "number") this.byToken.set(token, group);
      return;
    }
    // A legacy server asks (elicitation, sampling, roots) while one of our requests runs:
    // the latest such request is the one it most likely serves.
    const outer = [...this.sent.values()].reverse().find((open) => NESTING.has(open.method));
    entry.group = outer?.group ?? ++this.groups;
    this.received.set(id, { group: entry.group, at, method });
  }

  private placeNotification(entry: ProtocolEntry, method: string, params: Json | undefined): void {
    if (method === "notifications/progress") {
      const token = params?.progressToken;
      if (typeof token === "string" || typeof token === "number") entry.group = this.byToken.get(token);
    } else if (method === "notifications/cancelled") {
      const id = params?.requestId;
      if (typeof id === "string" || typeof id === "number")
        entry.group = (this.sent.get(id) ?? this.received.get(id))?.group;
    } else {
      // basic/patterns/subscriptions: what a listen stream carries names the listen request.
      const id = isObject(params?._meta) ? params._meta[SUBSCRIPTION_ID] : undefined;
      if (typeof id === "string" || typeof id === "number") entry.group = this.sent.get(id)?.group;
    }
  }
}
