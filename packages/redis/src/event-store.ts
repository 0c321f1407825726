import type { Redis } from "ioredis";
import type { EventStore } from "mcpkit/http";
import type { JsonRpcMessage } from "mcpkit/jsonrpc";

export interface RedisEventStoreOptions {
  /** Prefix of every key (default "mcpkit:"). */
  prefix?: string;
  /** Events kept per stream, about (XADD MAXLEN ~; default 1000). */
  maxEventsPerStream?: number;
  /** Events older than this are trimmed, and a stream not written for this long is dropped, ms (default 1 h). */
  maxAgeMs?: number;
}

/**
 * One append: the event once (a dedupe key already seen gives the id it got), trimmed by
 * length and age, the key's expiry pushed back. One round trip, atomic.
 * KEYS: stream, dedupe key (optional). ARGV: maxlen, minid, max age ms, data.
 */
const APPEND = `
if KEYS[2] then
  local known = redis.call('get', KEYS[2])
  if known then return known end
end
local id = redis.call('xadd', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[4])
redis.call('xtrim', KEYS[1], 'MINID', '~', ARGV[2])
redis.call('pexpire', KEYS[1], ARGV[3])
if KEYS[2] then redis.call('set', KEYS[2], id, 'PX', ARGV[3]) end
return id`;

/** `<streamId>_<Redis stream entry id>`: the stream is read off the event id. */
const EVENT_ID = /^(.+)_(\d+-\d+)$/;
const PAGE = 500;

/**
 * SSE events in Redis Streams, one stream key per SSE stream: any node can replay a
 * stream after a Last-Event-ID, whichever node wrote it. Entry ids are Redis's own, so
 * appends from several nodes stay in one order. Bounded in length (MAXLEN) and age (MINID,
 * and the key expires when the stream is no longer written). Costs: append = one round
 * trip (one script: XADD, XTRIM, PEXPIRE, and the dedupe key when given); replay = one
 * XRANGE per 500 events.
 */
export class RedisEventStore implements EventStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;

  constructor(redis: Redis, options: RedisEventStoreOptions = {}) {
    this.redis = redis;
    this.prefix = options.prefix ?? "mcpkit:";
    this.maxEvents = options.maxEventsPerStream ?? 1000;
    this.maxAgeMs = options.maxAgeMs ?? 60 * 60_000;
  }

  async append(
    streamId: string,
    message: JsonRpcMessage | JsonRpcMessage[] | undefined,
    dedupeKey?: string,
  ): Promise<string> {
    const key = this.key(streamId);
    // The priming event has no message: stored as an empty field, never replayed.
    const data = message === undefined ? "" : JSON.stringify(message);
    const oldest = Math.max(0, Date.now() - this.maxAgeMs);
    const keys = dedupeKey === undefined ? [key] : [key, `${this.prefix}dedupe:${streamId}:${dedupeKey}`];
    const entryId = await this.redis.eval(APPEND, keys.length, ...keys, this.maxEvents, oldest, this.maxAgeMs, data);
    return `${streamId}_${entryId as string}`;
  }

  async streamOf(eventId: string): Promise<string | undefined> {
    const parsed = EVENT_ID.exec(eventId);
    if (!parsed) return undefined;
    const streamId = parsed[1] as string;
    return (await this.redis.exists(this.key(streamId))) === 1 ? streamId : undefined;
  }

  async replayAfter(
    eventId: string,
    send: (eventId: string, message: JsonRpcMessage | JsonRpcMessage[]) => void,
  ): Promise<void> {
    const parsed = EVENT_ID.exec(eventId);
    if (!parsed) return;
    const streamId = parsed[1] as string;
    const key = this.key(streamId);
    let after = parsed[2] as string;
    for (;;) {
      // "(" makes the start exclusive: everything after the client's last event.
      const page = await this.redis.xrange(key, `(${after}`, "+", "COUNT", PAGE);
      for (const [entryId, fields] of page) {
        const data = fields[1];
        if (data) send(`${streamId}_${entryId}`, JSON.parse(data) as JsonRpcMessage | JsonRpcMessage[]);
      }
      if (page.length < PAGE) return;
      after = (page[page.length - 1] as [string, string[]])[0];
    }
  }

  async dropStream(streamId: string): Promise<void> {
    await this.redis.del(this.key(streamId));
  }

  private key(streamId: string): string {
    return `${this.prefix}stream:${streamId}`;
  }
}
