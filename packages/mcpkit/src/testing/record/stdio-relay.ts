import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { createLineReader } from "../../transports/stdio/line-reader.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../transports/transport.js";
import type { RecordingEntry } from "../replay/recording.js";
import { openRecordingFile, type RecordingFile } from "./recording-file.js";
import type { RedactOptions } from "./redact.js";

export interface StdioRecordOptions extends RedactOptions {
  command: string;
  args?: string[];
  /** The server's environment (default: this process's, whole: the relay is transparent). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The recording's path. */
  out: string;
  /** The client's side (default: this process's stdin and stdout). */
  input?: Readable;
  output?: Writable;
  /** How long the server may take to exit once its stdin closed, before SIGTERM, then SIGKILL (ms, default 2000 each). */
  killTimeoutMs?: number;
  /** Told the server's process once it started (to end it when the relay is told to stop). */
  onSpawn?: (server: { readonly pid?: number | undefined; kill(signal?: NodeJS.Signals): boolean }) => void;
  /** What went wrong beside the relay: a line that is not JSON, the recording failing to write. */
  onError?: (error: Error) => void;
}

export interface StdioRecordResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The messages recorded, each way. */
  messages: { client: number; server: number };
}

/**
 * `mcpkit record -- COMMAND`: a transparent stdio relay in front of a server. Every byte
 * of each side is forwarded as it came (the relay parses a copy of each line to record
 * it, and changes nothing); the server's stderr is this process's. When the client closes
 * its side (stdin ends), the server's stdin is closed and the server given `killTimeoutMs`
 * to exit; resolves once the server exited, with its exit code.
 */
export function recordStdio(options: StdioRecordOptions): Promise<StdioRecordResult> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const file = openRecordingFile(options.out, options);
  const counts = { client: 0, server: 0 };
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args ?? [], {
      stdio: ["pipe", "pipe", "inherit"],
      env: options.env ?? process.env,
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    });
    const copy = (from: RecordingEntry["from"]) => tap(file, from, counts, options.onError);
    const fromClient = copy("client");
    const fromServer = copy("server");
    const onInput = (chunk: Buffer) => {
      fromClient(chunk);
      if (child.stdin.writable && !child.stdin.write(chunk)) {
        input.pause();
        child.stdin.once("drain", () => input.resume());
      }
    };
    const onOutput = (chunk: Buffer) => {
      fromServer(chunk);
      if (!output.write(chunk)) {
        child.stdout.pause();
        output.once("drain", () => child.stdout.resume());
      }
    };
    const killTimeout = options.killTimeoutMs ?? 2000;
    let stopping: NodeJS.Timeout | undefined;
    const onInputEnd = () => {
      child.stdin.end();
      // The server should exit once its stdin closes (transports §stdio); one that does not is ended.
      stopping = setTimeout(() => {
        child.kill("SIGTERM");
        stopping = setTimeout(() => child.kill("SIGKILL"), killTimeout).unref();
      }, killTimeout).unref();
    };
    // The client stopped reading (EPIPE): it is gone, as when it closes its side. What the
    // server still writes is recorded, and no longer forwarded.
    let gone = false;
    const onOutputError = () => {
      if (gone) return;
      gone = true;
      input.off("data", onInput);
      child.stdout.off("data", onOutput).on("data", fromServer).resume();
      if (!child.stdin.writableEnded) onInputEnd();
    };
    // Kept after the server closed: a write that fails later must not throw either.
    output.on("error", onOutputError);
    // The server stopped reading: what the client still sends cannot be delivered.
    child.stdin.on("error", (error) =>
      options.onError?.(new Error(`The server stopped reading its stdin (${error.message})`)),
    );
    child.stdout.on("data", onOutput);
    child.once("error", (error) => {
      input.off("data", onInput);
      input.off("end", onInputEnd);
      file.close();
      reject(new Error(`Could not start ${options.command}: ${error.message}`));
    });
    child.once("spawn", () => {
      options.onSpawn?.(child);
      input.on("data", onInput);
      input.once("end", onInputEnd);
    });
    child.once("close", (code, signal) => {
      clearTimeout(stopping);
      input.off("data", onInput);
      input.off("end", onInputEnd);
      input.pause();
      file.close();
      resolve({ code, signal, messages: counts });
    });
  });
}

/** Parses a copy of each line one side sends and records it. */
function tap(
  file: RecordingFile,
  from: RecordingEntry["from"],
  counts: { client: number; server: number },
  onError?: (error: Error) => void,
): (chunk: Buffer) => void {
  let warned = false;
  return createLineReader(
    {
      message(value) {
        for (const message of Array.isArray(value) ? value : [value]) {
          counts[from]++;
          file.write(from, message);
        }
      },
      invalid(error) {
        if (warned) return;
        warned = true;
        onError?.(
          new Error(
            `The ${from} sent a line that is not a message (not recorded; forwarded as it was): ${error.message}`,
          ),
        );
      },
      close() {},
    },
    DEFAULT_MAX_MESSAGE_BYTES,
  );
}
