import type { Writable } from "node:stream";

/**
 * Writes newline-delimited messages, coalescing those sent in one turn of the event loop
 * into one write: under load that is one syscall for many responses instead of one each.
 */
export function createLineWriter(stream: Writable) {
  let pending = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === "") return;
    const chunk = pending;
    pending = "";
    if (stream.writable) stream.write(chunk);
  };
  return {
    write(line: string): void {
      pending += `${line}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
