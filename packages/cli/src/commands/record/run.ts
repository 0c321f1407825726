import { resolve } from "node:path";
import { wholeNumber } from "@mcpkit/servers/options";
import { recordStdio, startHttpRecorder } from "mcpkit/testing";
import { secretsOf } from "../replay/target.js";
import { type ServerTargetOptions, serverTarget } from "../server-target.js";
import { UsageError } from "../usage-error.js";

export interface RecordCommandOptions extends ServerTargetOptions {
  out: string;
  port?: string;
  secret?: string[];
  allowOrigin?: string[];
}

/**
 * `mcpkit record`: a stdio relay in front of a command (this process's stdin and stdout
 * are the client's; nothing else is ever written to stdout), or an HTTP relay in front
 * of a URL. Returns the exit code: the server's over stdio, 0 after Ctrl+C over HTTP.
 */
export async function runRecord(
  words: string[],
  argv: readonly string[],
  options: RecordCommandOptions,
): Promise<number> {
  const target = await serverTarget(words, argv, options, "record");
  const out = resolve(options.out);
  const secrets = [...secretsOf(target), ...(options.secret ?? [])];
  const warn = (error: Error) => process.stderr.write(`mcpkit record: ${error.message}\n`);
  if (target.kind === "stdio") {
    if (options.port !== undefined)
      throw new UsageError("--port is for an HTTP server (a URL): a command is relayed over stdio");
    const stop = (signal: NodeJS.Signals) => () => child?.kill(signal);
    let child: { kill(signal: NodeJS.Signals): void } | undefined;
    // The client going away (SIGTERM, Ctrl+C) ends the server too: the relay exits when it does.
    const onTerm = stop("SIGTERM");
    const onInt = stop("SIGINT");
    process.once("SIGTERM", onTerm).once("SIGINT", onInt);
    try {
      const result = await recordStdio({
        command: target.command,
        args: target.args,
        // Transparent: the server gets what this process was given, and the -e values.
        env: { ...process.env, ...target.env },
        ...(target.cwd !== undefined && { cwd: target.cwd }),
        out,
        secrets,
        onError: warn,
        onSpawn: (spawned) => {
          child = spawned;
        },
      });
      process.stderr.write(
        `mcpkit record: wrote ${result.messages.client + result.messages.server} messages to ${options.out}\n`,
      );
      return result.code ?? 1;
    } finally {
      process.off("SIGTERM", onTerm).off("SIGINT", onInt);
    }
  }
  const port = options.port === undefined ? 0 : wholeNumber(options.port, "--port");
  if (port > 65_535) throw new UsageError(`--port takes a port number, not ${options.port}`);
  const recorder = await startHttpRecorder({
    upstream: target.url,
    out,
    port,
    headers: target.headers,
    secrets,
    allowedOrigins: options.allowOrigin ?? [],
    onSession: (path) => process.stderr.write(`mcpkit record: recording a session to ${path}\n`),
    onError: warn,
  });
  process.stderr.write(`mcpkit record: relaying ${recorder.url.href} to ${target.url}; Ctrl+C stops\n`);
  process.stdout.write(`${recorder.url.href}\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off("SIGINT", stop).off("SIGTERM", stop);
      done();
    };
    process.once("SIGINT", stop).once("SIGTERM", stop);
  });
  await recorder.close();
  process.stderr.write(
    `mcpkit record: ${recorder.files.length} session${recorder.files.length === 1 ? "" : "s"} recorded\n`,
  );
  return 0;
}
