import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import { formatSse, SseConnection } from "../http/sse.js";
import type { Transport, TransportSink } from "../transport.js";

/** One 2024-11-05 HTTP+SSE client: everything the server sends goes down its one stream. */
export class SseSessionTransport implements Transport {
  readonly binding = "sse" as const;
  readonly sessionId: string;
  sink: TransportSink | undefined;
  readonly connection: SseConnection;

  constructor(sessionId: string, keepAliveMs: number, onGone: () => void) {
    this.sessionId = sessionId;
    this.connection = new SseConnection(onGone, keepAliveMs);
  }

  start(sink: TransportSink): void {
    this.sink = sink;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    this.connection.write(formatSse({ event: "message", data: JSON.stringify(message) }));
  }

  async close(): Promise<void> {
    this.connection.close();
    this.sink?.close();
  }
}
