import type { Readable, Writable } from "node:stream";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { Transport, TransportSink } from "../transport.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../transport.js";
import { createLineReader } from "./line-reader.js";
import { createLineWriter } from "./line-writer.js";

export interface StdioServerOptions {
  /** Default: process.stdin. */
  stdin?: Readable;
  /** Default: process.stdout. Nothing but MCP messages may be written to it. */
  stdout?: Writable;
  /** Largest accepted message in bytes (default 16 MiB). */
  maxMessageBytes?: number;
}

/**
 * The server side of transports §stdio: messages on stdin and stdout, one per line.
 * Logs belong on stderr; the transport closes when stdin ends or stdout breaks.
 */
export function stdioServerTransport(options: StdioServerOptions = {}): Transport {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  let sink: TransportSink | undefined;
  let closed = false;
  const writer = createLineWriter(stdout);
  // Pipes to stdout are written synchronously at exit, so nothing queued is lost to process.exit().
  const flushAtExit = () => writer.flush();
  process.on("exit", flushAtExit);

  const finish = (reason?: Error) => {
    if (closed) return;
    closed = true;
    writer.flush();
    process.off("exit", flushAtExit);
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.off("error", finish);
    stdout.off("error", finish);
    stdin.pause();
    sink?.close(reason);
  };
  let onData: (chunk: Buffer) => void = () => {};
  const onEnd = () => finish();

  return {
    binding: "stdio",
    start(s) {
      sink = s;
      onData = createLineReader(s, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
      stdin.on("data", onData);
      stdin.on("end", onEnd);
      stdin.on("error", finish);
      stdout.on("error", finish);
      stdin.resume();
    },
    send(message: JsonRpcMessage | JsonRpcMessage[]) {
      if (closed) return;
      writer.write(JSON.stringify(message));
    },
    async close() {
      finish();
    },
  };
}
