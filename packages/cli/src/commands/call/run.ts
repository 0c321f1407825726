import { ErrorCode, LOG_LEVELS, type LogLevel, McpError } from "mcpkit";
import { Client, type ClientOptions } from "mcpkit/client";
import { ACTIONS } from "./actions/index.js";
import { interruptible } from "./actions/session.js";
import { type ConnectOptions, clientOptions, connect, type StderrTail } from "./connect.js";
import { elicitAtTerminal } from "./elicit.js";
import { EXIT, type ExitCode, exitCodeFor, UsageError } from "./exit-codes.js";
import { formatLog } from "./format/log.js";
import { onInterrupt } from "./interrupt.js";
import { parseInvocation, type Target } from "./invocation.js";
import { namedServer } from "./named.js";
import { createOutput, type Output } from "./output.js";
import { progressBar } from "./progress.js";
import { report } from "./report.js";
import { sampleAtTerminal } from "./sample.js";
import { canAsk, createAsk } from "./terminal.js";

export interface CallCommandOptions extends ConnectOptions {
  /** --config FILE: where server names are read (otherwise the files config/resolve.ts lists). */
  config?: string;
  json?: boolean;
  /** --save DIR: binary content goes there. */
  save?: string;
  /** False with --no-interactive. */
  interactive: boolean;
  logLevel?: string;
  detach?: boolean;
}

/** How long a failed connection waits for the rest of a stdio server's stderr. */
const STDERR_GRACE_MS = 500;

/** How long closing may take (a stdio server gets stdin closed, then SIGTERM, then SIGKILL). */
const CLOSE_TIMEOUT_MS = 5000;

/**
 * `mcpkit call`: connect, run one action, report, close. Returns the exit code
 * (exit-codes.ts); never throws.
 */
export async function runCall(words: string[], dashed: number, options: CallCommandOptions): Promise<ExitCode> {
  const out = createOutput(options.json === true, options.save);
  const progress = progressBar(process.stderr, out.ce);
  const interrupt = new AbortController();
  const unhook = onInterrupt(interrupt);
  const tail: StderrTail = { text: "" };
  const warn = (error: Error) => {
    progress?.clear();
    out.note(out.ce.yellow(`mcpkit call: ${error.message}`));
  };
  const cleanups: (() => void)[] = [];
  let client: Client | undefined;
  let invocationTarget: Target | undefined;
  try {
    const named = namedServer(words, dashed, options);
    const invocation = parseInvocation(named?.words ?? words, named?.dashed ?? dashed);
    if (named?.cwd !== undefined && invocation.target.kind === "stdio") invocation.target.cwd = named.cwd;
    invocationTarget = invocation.target;
    const runner = ACTIONS[invocation.action](invocation.args);
    if (options.detach && invocation.target.kind === "stdio")
      throw new UsageError("--detach needs a server over HTTP: a stdio server stops when mcpkit call exits");
    if (options.detach && invocation.action !== "call")
      throw new UsageError("--detach applies to a tool call: mcpkit call --detach URL TOOL key=value…");
    const level = logLevelOf(options.logLevel);
    const interactive = options.interactive && canAsk();
    client = new Client({
      ...clientOptions(options, interactive ? answerers(progress, out) : {}),
      onError: (e) => warn(e instanceof Error ? e : new Error(String(e))),
    });
    const connecting = connect(invocation.target, options, { client, interactive, warn, tail, cleanups });
    const server = await interruptible(connecting, interrupt.signal);
    if (invocation.commandArgs?.length && server.capabilities?.tools)
      await refuseStrayTool(client, invocation.commandArgs, invocation.target, interrupt.signal);
    if (level) {
      if (server.capabilities?.logging) await client.setLogLevel(level);
      else warn(new Error("The server does not offer logging; --log-level has no effect"));
      // watch prints log messages with the other notifications, on stdout.
      if (invocation.action !== "watch")
        client.on("notifications/message", (params) => {
          progress?.clear();
          out.note(out.ce.dim(formatLog(params)));
        });
    }
    return await runner({
      client,
      server,
      out,
      signal: interrupt.signal,
      onprogress: progress ? (p) => progress.update(p) : undefined,
      endProgress: () => progress?.clear(),
      detach: options.detach === true,
      target: targetText(invocation.target),
    });
  } catch (error) {
    progress?.clear();
    // A server that died may still have its last words in the pipe: the transport can
    // report the exit before they are read.
    if (tail.ended && exitCodeFor(error) === EXIT.connection)
      await Promise.race([tail.ended, new Promise((r) => setTimeout(r, STDERR_GRACE_MS).unref())]);
    // A server that answered "Internal error" logs why on stderr, which may come just after the
    // answer (two pipes, read apart), even when it wrote something else there before.
    if (tail.more && error instanceof McpError && error.code === ErrorCode.InternalError)
      await tail.more(STDERR_GRACE_MS);
    report(error, out, {
      target: invocationTarget ?? { kind: "stdio" },
      stderr: tail.text,
      ...(tail.stray && { stray: tail.stray }),
      stderrShown: options.serverStderr === true,
    });
    return exitCodeFor(error);
  } finally {
    unhook();
    if (client) await Promise.race([client.close(), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
    for (const cleanup of cleanups) cleanup();
  }
}

/**
 * Sampling and elicitation are answered at the terminal. Without one (stdin or stderr
 * redirected) or with --no-interactive, neither is declared, so servers know not to ask
 * (basic/lifecycle §Capability Negotiation) instead of waiting for an answer that cannot come.
 */
function answerers(progress: ReturnType<typeof progressBar>, out: Output): Partial<ClientOptions> {
  const ask = createAsk(progress);
  return {
    elicitation: elicitAtTerminal(ask, out.ce),
    sampling: sampleAtTerminal(ask, out.ce),
    capabilities: { elicitation: { url: {} } },
  };
}

/**
 * `mcpkit call -- COMMAND ARGS TOOL` reads TOOL as an argument of the command (commander
 * cannot tell them apart), and would print `info`: when a word after the command names a
 * tool of the server, say how to call it instead.
 */
async function refuseStrayTool(client: Client, words: string[], target: Target, signal: AbortSignal): Promise<void> {
  const tools = await interruptible(client.tools(), signal).catch(() => []);
  const stray = words.find((word) => tools.some((tool) => tool.name === word));
  if (stray === undefined || target.kind !== "stdio") return;
  const at = target.args.indexOf(stray);
  const command = [target.command, ...target.args.slice(0, at)].join(" ");
  const rest = target.args.slice(at + 1).join(" ");
  throw new UsageError(
    `"${stray}" came after the command, so it went to the server as an argument, and no action was named. To call the tool: mcpkit call ${stray}${rest ? ` ${rest}` : ""} -- ${command}  (or: mcpkit call -- ${command} call ${stray}${rest ? ` ${rest}` : ""})`,
  );
}

function targetText(target: Target): string {
  return target.kind === "http" ? target.url.href : `-- ${[target.command, ...target.args].join(" ")}`;
}

function logLevelOf(value: string | undefined): LogLevel | undefined {
  if (value === undefined) return undefined;
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new UsageError(`--log-level takes one of ${LOG_LEVELS.join(", ")}, not ${value}`);
}
