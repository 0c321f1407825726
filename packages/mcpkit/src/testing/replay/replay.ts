import { openTransport } from "../target/open-transport.js";
import { describeTarget, resolveTarget, type ServerTarget } from "../target/server-target.js";
import { compareMessages, parseIgnores, substitute, substitutions } from "./compare.js";
import { LiveServer } from "./live.js";
import { type RecordingEntry, readRecording } from "./recording.js";
import { type Difference, differencesOf } from "./results.js";
import { type Classified, type Script, scriptOf } from "./script.js";

export interface ReplayOptions {
  /** JSON Pointers into messages to ignore besides the defaults; `*` stands for any array item. */
  ignore?: readonly string[];
  /** How long to wait for each message the recording expects before calling it missing, ms (default 10 s). */
  timeoutMs?: number;
  /** Where a command starts (default: this process's folder). */
  cwd?: string;
  /** Show a command's stderr (default: kept, and shown when it fails). */
  inheritStderr?: boolean;
}

export interface ReplayResult {
  /** True when the server answered as recorded (nothing differs). */
  ok: boolean;
  differences: Difference[];
  /** The client messages sent again. */
  sent: number;
  /** The server messages compared. */
  compared: number;
  /** The server that was replayed against, in words. */
  server: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** How long notifications still missing are awaited once every answer came. */
const SETTLE_MS = 1000;

/**
 * Plays the client's side of a recording (docs/testing.md, "Replay") against a server:
 * each message in its recorded order, each sent once the answers that preceded it in the
 * recording came back; the server's requests (sampling, elicitation, roots) answered with
 * the client's recorded answers, by method and order; values the server made up (task
 * ids, request state, cursors) replaced in what the client sends back. Then compares what
 * the server sent with what it sent then: answers by request, its requests by method and
 * order, notifications in order.
 */
export async function replay(
  recording: string | readonly RecordingEntry[],
  server: ServerTarget,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const entries = typeof recording === "string" ? await readRecording(recording) : recording;
  const ignores = parseIgnores(options.ignore ?? []);
  const target = resolveTarget(server);
  const script = scriptOf(entries);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const opened = await openTransport(target, {
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    ...(options.inheritStderr && { inheritStderr: true }),
  });
  const values = new Map<string, string>();
  const sentInitialize = new Set<string | number>();
  const live = new LiveServer(opened.transport, answerFrom(script), (answer) => {
    const recorded = script.answers.get(answer.id as string | number);
    if (recorded) for (const [was, is] of substitutions(recorded.message, answer.message)) values.set(was, is);
    // Over HTTP the transport sends the negotiated revision with every request once told it.
    const result = answer.message.result as { protocolVersion?: unknown } | undefined;
    if (sentInitialize.has(answer.id as string | number) && typeof result?.protocolVersion === "string")
      opened.transport.setProtocolVersion?.(result.protocolVersion);
  });
  let sent = 0;
  try {
    try {
      await live.start();
    } catch (error) {
      throw new Error(`Could not start ${describeTarget(target)}: ${(error as Error).message}`);
    }
    for (const step of script.steps) {
      // What the client had seen before it sent this: the answers and the server's requests.
      await live.until(
        () =>
          step.answeredBefore.every((id) => live.answers.has(id)) &&
          [...step.serverRequestsBefore].every(([method, n]) => (live.requests.get(method)?.length ?? 0) >= n),
        timeoutMs,
      );
      if (live.closed) break;
      const message = substitute(step.message, values) as Record<string, unknown>;
      if (message.method === "initialize" && message.id !== undefined)
        sentInitialize.add(message.id as string | number);
      live.send(message);
      sent++;
    }
    await live.until(
      () =>
        [...script.answers.keys()].every((id) => live.answers.has(id)) &&
        [...script.serverRequests].every(([method, list]) => (live.requests.get(method)?.length ?? 0) >= list.length),
      timeoutMs,
    );
    // Notifications have no answer to wait for: once every answer came, the ones still
    // missing get a short grace (those on an HTTP GET stream may trail the answers).
    await live.until(() => live.notifications.length >= script.notifications.length, Math.min(timeoutMs, SETTLE_MS));
  } finally {
    await live.close();
    await opened.after();
  }
  const differences = differencesOf(script, live, ignores, compareMessages);
  if (live.closed instanceof Error && differences.length > 0) {
    const stderr = await opened.stderr(1000);
    differences.unshift({
      where: "the connection",
      message: `closed early: ${live.closed.message}${stderr ? `\nThe server's stderr ended with:\n${stderr}` : ""}`,
      details: [],
    });
  }
  return {
    ok: differences.length === 0,
    differences,
    sent,
    compared: live.received.length,
    server: describeTarget(target),
  };
}

/** Answers the server's requests with the client's recorded answers, by method and order. */
function answerFrom(script: Script): (request: Classified) => Record<string, unknown> {
  const used = new Map<string, number>();
  return (request) => {
    const method = request.method as string;
    const n = used.get(method) ?? 0;
    used.set(method, n + 1);
    const recorded = script.clientAnswers.get(method)?.[n];
    if (!recorded)
      return {
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32601, message: `The recording holds no answer to ${method} #${n + 1}` },
      };
    const { id: _, ...answer } = recorded;
    return { ...answer, jsonrpc: "2.0", id: request.id };
  };
}
