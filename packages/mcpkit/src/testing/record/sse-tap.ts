import { createParser } from "eventsource-parser";

/**
 * A stream that passes an event stream through unchanged and hands each event's data to
 * `onData` on the way: the client reads exactly what the server wrote, and a client that
 * goes away cancels the server's stream (a tee would keep reading it for the copy).
 */
export function tapEventStream(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => void,
  maxEventBytes: number,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let overflowed = false;
  const parser = createParser({
    onEvent: (event) => {
      if (!overflowed) onData(event.data);
    },
    onError: (error) => {
      // The copy gives up on an event too large to record; the stream itself goes on.
      if (error.type === "max-buffer-size-exceeded") overflowed = true;
    },
    maxBufferSize: maxEventBytes,
  });
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        if (!overflowed) parser.feed(decoder.decode(chunk, { stream: true }));
      },
    }),
  );
}
