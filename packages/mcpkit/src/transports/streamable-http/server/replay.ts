import type { JsonRpcMessage } from "../../../jsonrpc/types.js";
import type { HttpReply } from "../../http/exchange.js";
import { jsonRpcErrorReply } from "../../http/responses.js";
import { formatSse, SseConnection } from "../../http/sse.js";
import type { EventStore } from "./event-store.js";
import { isResponse, type Stream, sseReply } from "./stream.js";

// Resumption (transports §Resumability and Redelivery): what a GET with Last-Event-ID gets,
// on the node that wrote the stream or, in a cluster, on another one.

/** Writes every stored event after `lastEventId` to `connection`. */
function replayInto(connection: SseConnection, lastEventId: string, store: EventStore): Promise<void> {
  return store.replayAfter(lastEventId, (id, message) =>
    connection.write(formatSse({ id, data: JSON.stringify(message) })),
  );
}

/**
 * Attaches `connection` to `stream` in the stream's queue: everything appended before is
 * replayed, everything after is written live, and nothing twice. A finished stream's
 * connection closes once replayed.
 */
export function attachReplaying(stream: Stream, connection: SseConnection, lastEventId: string, store: EventStore) {
  stream.sse = true;
  stream.enqueue(async () => {
    const previous = stream.connection;
    if (previous && previous !== connection) previous.close();
    stream.connection = connection;
    await replayInto(connection, lastEventId, store);
    if (stream.finished) connection.close();
  });
}

/**
 * A POST's stream another live node is writing: replayed as far as stored, then closed
 * with the retry advice, so the client polls again with its last event id.
 */
export function replayStored(
  lastEventId: string,
  store: EventStore,
  options: { keepAliveMs: number; retryMs: number },
  report: (error: unknown) => void,
): HttpReply {
  const connection = new SseConnection(() => {}, options.keepAliveMs);
  replayInto(connection, lastEventId, store)
    .catch(report)
    .finally(() => {
      connection.write(formatSse({ retry: options.retryMs }));
      connection.close();
    })
    .catch(report);
  return sseReply(connection);
}

/**
 * The stream of a POST whose node died: what it stored is replayed if that includes the
 * answer; otherwise nothing will ever answer, and the client is told so rather than left
 * polling (410, so it can send the request again).
 */
export async function orphanedReply(lastEventId: string, store: EventStore, keepAliveMs: number): Promise<HttpReply> {
  const stored: { id: string; message: JsonRpcMessage | JsonRpcMessage[] }[] = [];
  await store.replayAfter(lastEventId, (id, message) => stored.push({ id, message }));
  if (!stored.some(({ message }) => (Array.isArray(message) ? message : [message]).some(isResponse))) {
    return jsonRpcErrorReply(
      410,
      -32603,
      "The server node running this request stopped before answering it; send the request again",
    );
  }
  const connection = new SseConnection(() => {}, keepAliveMs);
  for (const { id, message } of stored) connection.write(formatSse({ id, data: JSON.stringify(message) }));
  connection.close();
  return sseReply(connection);
}

/**
 * Stream ids in a cluster name their session, so any node tells whose stream an event is
 * on: `<session>~g` for the session's standalone stream (one for every node) and
 * `<session>~p<node>.<n>` for a POST's.
 */
export function clusterStreamPrefix(sessionId: string, standalone: boolean, node: string | undefined): string {
  return standalone ? `${sessionId}~g` : `${sessionId}~p${node ?? ""}.`;
}

/** Whose a stream of this session is (`clusterStreamPrefix`), or undefined if not one of its cluster streams. */
export function clusterStreamOwner(
  sessionId: string,
  streamId: string,
): { standalone: true } | { standalone: false; node: string } | undefined {
  if (!streamId.startsWith(`${sessionId}~`)) return undefined;
  const kind = streamId.slice(sessionId.length);
  return kind.startsWith("~g") ? { standalone: true } : { standalone: false, node: kind.slice(2, kind.indexOf(".")) };
}
