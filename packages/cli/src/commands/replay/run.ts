import { durationMs } from "@mcpkit/servers/options";
import { formatReplay, RecordingError, readRecording, replay } from "mcpkit/testing";
import { type ServerTargetOptions, serverTarget } from "../server-target.js";
import { UsageError } from "../usage-error.js";
import { libraryTarget } from "./target.js";

export interface ReplayCommandOptions extends ServerTargetOptions {
  ignore?: string[];
  timeout?: string;
  json?: boolean;
  serverStderr?: boolean;
}

/** `mcpkit replay RECORDING SERVER`: replays (mcpkit/testing), prints the differences; 1 when any. */
export async function runReplay(
  recording: string,
  words: string[],
  argv: readonly string[],
  options: ReplayCommandOptions,
): Promise<number> {
  const target = await serverTarget(words, argv, options, "replay");
  const timeoutMs = options.timeout === undefined ? undefined : durationMs(options.timeout, "--timeout");
  for (const pointer of options.ignore ?? [])
    if (pointer !== "" && !pointer.startsWith("/"))
      throw new UsageError(`--ignore takes a JSON Pointer, such as /result/content/*/text, not "${pointer}"`);
  let entries: Awaited<ReturnType<typeof readRecording>>;
  try {
    entries = await readRecording(recording);
  } catch (error) {
    if (error instanceof RecordingError) throw new UsageError(error.message);
    throw error;
  }
  try {
    const result = await replay(entries, libraryTarget(target), {
      ignore: options.ignore ?? [],
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(options.serverStderr && { inheritStderr: true }),
    });
    process.stdout.write(
      options.json
        ? `${JSON.stringify({ ok: result.ok, sent: result.sent, differences: result.differences }, null, 2)}\n`
        : formatReplay(result),
    );
    return result.ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`mcpkit replay: ${(error as Error).message}\n`);
    return 1;
  }
}
