import { closeSync, constants, mkdirSync, openSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { formatEntry, type RecordingEntry } from "../replay/recording.js";
import { type RedactOptions, redact } from "./redact.js";

/** A recording being written: one JSON line per message, credentials left out. */
export interface RecordingFile {
  readonly path: string;
  /** Appends a message (redacted first); `t` is counted from the file's first message. */
  write(from: RecordingEntry["from"], message: unknown, at?: number): void;
  close(): void;
}

/**
 * Creates the recording file afresh, readable by its owner only (a recording holds what
 * the session carried). An existing file is removed first, and the new one is created
 * exclusively: a link planted at the path is replaced, never written through (O_EXCL
 * refuses a link as it refuses a file). A failure to write is told to `onError` once;
 * the recording stops, and what it records goes on unaffected.
 */
export function openRecordingFile(
  path: string,
  options: RedactOptions & { onError?: (error: Error) => void; startedAt?: number } = {},
): RecordingFile {
  mkdirSync(dirname(path), { recursive: true });
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  let fd: number | undefined = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  // The clock starts at the first message written, unless told when the recording began.
  let startedAt = options.startedAt;
  return {
    path,
    write(from, message, at = performance.now()) {
      if (fd === undefined) return;
      startedAt ??= at;
      const entry = { t: Math.max(0, Math.round(at - startedAt)), from, message: redact(message, options) };
      try {
        writeSync(fd, formatEntry(entry));
      } catch (error) {
        closeSync(fd);
        fd = undefined;
        options.onError?.(new Error(`The recording ${path} stopped: ${(error as Error).message}`));
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
