import { readFile, stat } from "node:fs/promises";
import { isObject } from "../json/sorted.js";

/**
 * One line of a recording (docs/testing.md, "Recordings"): when, from whom, and the
 * JSON-RPC message as it crossed (credentials left out: see `redact`).
 */
export interface RecordingEntry {
  /** Milliseconds since the recording began. */
  t: number;
  from: "client" | "server";
  message: unknown;
}

/** A recording that cannot be read: says which line and why. */
export class RecordingError extends Error {
  override name = "RecordingError";
}

/** The largest recording read whole. */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

/** One entry as its line in the file (with the newline). */
export const formatEntry = (entry: RecordingEntry) =>
  `${JSON.stringify({ t: entry.t, from: entry.from, message: entry.message })}\n`;

/** Reads a recording's JSON lines; blank lines are skipped. */
export function parseRecording(text: string, source = "the recording"): RecordingEntry[] {
  const entries: RecordingEntry[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RecordingError(`${source}, line ${i + 1}: not JSON (${(error as Error).message})`);
    }
    if (
      !isObject(value) ||
      typeof value.t !== "number" ||
      (value.from !== "client" && value.from !== "server") ||
      !isObject(value.message)
    )
      throw new RecordingError(
        `${source}, line ${i + 1}: not a recording entry: { "t": ms, "from": "client" | "server", "message": { … } }`,
      );
    entries.push({ t: value.t, from: value.from, message: value.message });
  }
  if (entries.length === 0) throw new RecordingError(`${source} holds no messages`);
  return entries;
}

/** Reads a recording file. */
export async function readRecording(path: string): Promise<RecordingEntry[]> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.size > MAX_RECORDING_BYTES)
      throw new RecordingError(
        `${path} is ${info.size} bytes; replay reads recordings of up to ${MAX_RECORDING_BYTES}`,
      );
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new RecordingError(code === "ENOENT" ? `${path}: no such file` : `${path} cannot be read (${code ?? error})`);
  }
  return parseRecording(text, path);
}
