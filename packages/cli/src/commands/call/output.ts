import pc from "picocolors";
import { type Save, saverInto } from "./format/binary.js";

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colors for one stream: picocolors decides by stdout alone, but prompts, progress and
 * errors go to stderr, which may be a terminal while stdout is a pipe (or the reverse).
 * NO_COLOR and FORCE_COLOR are honoured as everywhere else.
 */
export function colorsFor(stream: NodeJS.WriteStream): Colors {
  const env = process.env;
  const enabled = !("NO_COLOR" in env) && ("FORCE_COLOR" in env || (stream.isTTY === true && env.TERM !== "dumb"));
  return pc.createColors(enabled);
}

/**
 * Where results and messages go: results on stdout (human text, or JSON with --json),
 * everything else (notes, warnings, errors, prompts, progress) on stderr, so a script
 * that reads stdout gets only the result.
 */
export interface Output {
  readonly json: boolean;
  /** Colors for stdout. */
  readonly c: Colors;
  /** Colors for stderr. */
  readonly ce: Colors;
  /** A line of human-readable result. */
  line(text?: string): void;
  /** The result as JSON (with --json). */
  data(value: unknown): void;
  /** Raw bytes (a blob written to a file or a pipe). */
  bytes(data: Uint8Array): void;
  /** A message for the person at the terminal. */
  note(text: string): void;
  /** --save DIR: where binary content is written (described, not printed, either way). */
  readonly save?: Save;
}

export function createOutput(json: boolean, saveDir?: string): Output {
  // `mcpkit call … | head` closes stdout early: stop quietly rather than crash on EPIPE.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  return {
    json,
    c: colorsFor(process.stdout),
    ce: colorsFor(process.stderr),
    // A text that already ends its line (a file's contents) is printed exactly as it is.
    line: (text = "") => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    data: (value) => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    bytes: (data) => void process.stdout.write(data),
    note: (text) => void process.stderr.write(`${text}\n`),
    ...(saveDir !== undefined && { save: saverInto(saveDir) }),
  };
}

/** Resolves once everything written to stdout and stderr has been handed to the OS. */
export function flushed(): Promise<void> {
  const drain = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.writableLength === 0) resolve();
      else stream.write("", () => resolve());
    });
  return Promise.all([drain(process.stdout), drain(process.stderr)]).then(() => undefined);
}
