import { resolve } from "node:path";
import { Client } from "mcpkit/client";
import { formatSnapshot, snapshot } from "mcpkit/testing";
import { replaceFile } from "../../files/replace-file.js";
import { type ConnectOptions, clientOptions, connect, type StderrTail } from "../call/connect.js";
import type { Target as CallTarget } from "../call/invocation.js";
import { canAsk } from "../call/terminal.js";
import { type ServerTargetOptions, serverTarget } from "../server-target.js";
import { UsageError } from "../usage-error.js";

export interface SnapshotCommandOptions extends ServerTargetOptions {
  out?: string;
  protocol?: string;
  timeout?: string;
  serverStderr?: boolean;
}

/** How long closing may take (a stdio server gets stdin closed, then SIGTERM, then SIGKILL). */
const CLOSE_TIMEOUT_MS = 5000;
/** How long a failed connection waits for the rest of a stdio server's stderr. */
const STDERR_GRACE_MS = 500;

/**
 * `mcpkit snapshot`: connects as `mcpkit call` does (its connection code: a login when an
 * HTTP server asks for one, the server's stderr kept to say why it failed), takes the
 * snapshot (mcpkit/testing), prints it or writes --out.
 */
export async function runSnapshot(
  words: string[],
  argv: readonly string[],
  options: SnapshotCommandOptions,
): Promise<number> {
  const target = await serverTarget(words, argv, options, "snapshot");
  const callTarget: CallTarget =
    target.kind === "http"
      ? { kind: "http", url: new URL(target.url) }
      : {
          kind: "stdio",
          command: target.command,
          args: target.args,
          ...(target.cwd !== undefined && { cwd: target.cwd }),
        };
  const connection: ConnectOptions = {
    header: target.kind === "http" ? Object.entries(target.headers).map(([name, value]) => `${name}: ${value}`) : [],
    env: target.kind === "stdio" ? Object.entries(target.env).map(([key, value]) => `${key}=${value}`) : [],
    ...(options.protocol !== undefined && { protocol: options.protocol }),
    ...(options.timeout !== undefined && { timeout: options.timeout }),
    ...(options.serverStderr && { serverStderr: true }),
  };
  const warn = (error: Error) => process.stderr.write(`mcpkit snapshot: ${error.message}\n`);
  const client = new Client({
    ...clientOptions(connection, {}),
    name: "mcpkit-snapshot",
    onError: (e) => warn(e as Error),
  });
  const tail: StderrTail = { text: "" };
  const cleanups: (() => void)[] = [];
  try {
    await connect(callTarget, connection, { client, interactive: canAsk(), warn, tail, cleanups });
    const text = formatSnapshot(await snapshot(client));
    if (options.out === undefined) process.stdout.write(text);
    else {
      replaceFile(resolve(options.out), text);
      process.stderr.write(`mcpkit snapshot: wrote ${options.out}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // A server that died may still have its last words in the pipe.
    if (tail.ended) await Promise.race([tail.ended, new Promise((r) => setTimeout(r, STDERR_GRACE_MS).unref())]);
    const stderr = tail.text.trim();
    process.stderr.write(
      `mcpkit snapshot: ${(error as Error).message}\n${stderr ? `The server's stderr ended with:\n${stderr}\n` : ""}`,
    );
    return 1;
  } finally {
    await Promise.race([client.close(), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
    for (const cleanup of cleanups) cleanup();
  }
}
