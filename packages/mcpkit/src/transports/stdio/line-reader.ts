import { ErrorCode } from "../../jsonrpc/errors.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type TransportSink } from "../transport.js";

/**
 * Splits a byte stream into newline-delimited JSON messages (transports §stdio) and decodes
 * each exactly once. A line over the limit is dropped whole and reported as invalid; a line
 * that is not JSON is reported as invalid, and given to `onInvalidLine` when there is one.
 */
export function createLineReader(
  sink: TransportSink,
  maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  onInvalidLine?: (line: string) => void,
) {
  let parts: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;

  const emit = (line: Buffer | string) => {
    const text = typeof line === "string" ? line : line.toString("utf8");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      onInvalidLine?.(text);
      sink.invalid({ code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` });
      return;
    }
    sink.message(value);
  };

  const tooLarge = () =>
    sink.invalid({
      code: ErrorCode.InvalidRequest,
      message: `Invalid request: message exceeds the ${maxMessageBytes}-byte limit`,
    });

  return function push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      if (discarding) {
        discarding = false;
      } else if (pendingBytes + nl - start > maxMessageBytes) {
        tooLarge();
      } else if (parts.length === 0) {
        emit(chunk.toString("utf8", start, nl));
      } else {
        parts.push(chunk.subarray(start, nl));
        emit(Buffer.concat(parts));
      }
      parts = [];
      pendingBytes = 0;
      start = nl + 1;
    }
    if (start >= chunk.length || discarding) return;
    const rest = chunk.subarray(start);
    if (pendingBytes + rest.length > maxMessageBytes) {
      tooLarge();
      parts = [];
      pendingBytes = 0;
      discarding = true;
      return;
    }
    // Copy: the stream may reuse the chunk's memory.
    parts.push(Buffer.from(rest));
    pendingBytes += rest.length;
  };
}
