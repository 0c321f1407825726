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

/**
 * Every message both ways, numbered, with its exchange worked out: answers find their
 * requests by id, progress finds its request by token, a retried 2026-07-28 request finds
 * the input_required result whose requestState it carries. Keeps the last `limit`.
 */
export class ProtocolLog {
  readonly entries: ProtocolEntry[] = [];
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

  /** Forget the exchanges in flight (a new connection starts over; the entries stay). */
  reset(): void {
    this.sent.clear();
    this.received.clear();
    this.byToken.clear();
    this.byState.clear();
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
