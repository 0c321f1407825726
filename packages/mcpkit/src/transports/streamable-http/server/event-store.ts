import type { JsonRpcMessage } from "../../../jsonrpc/types.js";

/**
 * Where SSE events are kept so a client can resume a broken stream with Last-Event-ID
 * (transports §Resumability and Redelivery). An in-memory store is the default; a shared
 * one (Redis) lets any node resume any stream.
 */
export interface EventStore {
  /**
   * Stores one event of a stream; `undefined` is the priming event. Returns its event id.
   * Appends with the same `dedupeKey` (several nodes passing on one event) store it once
   * and all get its id.
   */
  append(streamId: string, message: JsonRpcMessage | JsonRpcMessage[] | undefined, dedupeKey?: string): Promise<string>;
  /** The stream an event id belongs to, or undefined if the store does not know it. */
  streamOf(eventId: string): Promise<string | undefined>;
  /** Sends, in order, every message stored on that event's stream after it. */
  replayAfter(
    eventId: string,
    send: (eventId: string, message: JsonRpcMessage | JsonRpcMessage[]) => void,
  ): Promise<void>;
  /** Forgets a stream that can no longer be resumed. */
  dropStream(streamId: string): Promise<void>;
}

export interface InMemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped (default 1000). */
  maxEventsPerStream?: number;
  /** Streams kept; the least recently written is dropped (default 10 000). */
  maxStreams?: number;
}

interface StoredStream {
  next: number;
  /** Event ids by dedupe key (the last few hundred). */
  keys?: Map<string, string>;
  events: { id: string; seq: number; message: JsonRpcMessage | JsonRpcMessage[] | undefined }[];
}

/** Event ids are `<streamId>_<sequence>`, so the stream is read off the id. */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StoredStream>();
  private readonly maxEvents: number;
  private readonly maxStreams: number;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEventsPerStream ?? 1000;
    this.maxStreams = options.maxStreams ?? 10_000;
  }

  async append(
    streamId: string,
    message: JsonRpcMessage | JsonRpcMessage[] | undefined,
    dedupeKey?: string,
  ): Promise<string> {
    const known = dedupeKey === undefined ? undefined : this.streams.get(streamId)?.keys?.get(dedupeKey);
    if (known !== undefined) return known;
    let stream = this.streams.get(streamId);
    if (stream) {
      // Re-insert: Map order is then least recently written first.
      this.streams.delete(streamId);
    } else {
      stream = { next: 0, events: [] };
      if (this.streams.size >= this.maxStreams) {
        const oldest = this.streams.keys().next().value;
        if (oldest !== undefined) this.streams.delete(oldest);
      }
    }
    this.streams.set(streamId, stream);
    const seq = stream.next++;
    const id = `${streamId}_${seq}`;
    stream.events.push({ id, seq, message });
    if (stream.events.length > this.maxEvents) stream.events.shift();
    if (dedupeKey !== undefined) {
      stream.keys ??= new Map();
      stream.keys.set(dedupeKey, id);
      if (stream.keys.size > 256) stream.keys.delete(stream.keys.keys().next().value as string);
    }
    return id;
  }

  async streamOf(eventId: string): Promise<string | undefined> {
    return parseEventId(eventId, this.streams)?.streamId;
  }

  async replayAfter(
    eventId: string,
    send: (eventId: string, message: JsonRpcMessage | JsonRpcMessage[]) => void,
  ): Promise<void> {
    const parsed = parseEventId(eventId, this.streams);
    if (!parsed) return;
    for (const event of parsed.stream.events) {
      if (event.seq > parsed.seq && event.message !== undefined) send(event.id, event.message);
    }
  }

  async dropStream(streamId: string): Promise<void> {
    this.streams.delete(streamId);
  }

  /** Streams held (for tests and metrics). */
  get size(): number {
    return this.streams.size;
  }
}

/** `<streamId>_<sequence>` of a stream this store holds, or undefined. */
function parseEventId(eventId: string, streams: Map<string, StoredStream>) {
  const cut = eventId.lastIndexOf("_");
  const digits = eventId.slice(cut + 1);
  if (cut <= 0 || !/^\d+$/.test(digits)) return undefined;
  const streamId = eventId.slice(0, cut);
  const stream = streams.get(streamId);
  return stream ? { streamId, stream, seq: Number(digits) } : undefined;
}
