import type { input } from "@inquirer/prompts";
import type { ProgressBar } from "./progress.js";

/** What every prompt of @inquirer/prompts takes besides its config: streams and an abort signal. */
export type Context = NonNullable<Parameters<typeof input>[1]>;

/** Asks the person at the terminal, one question at a time. */
export type Ask = <T>(question: (context: Context) => Promise<T>, signal?: AbortSignal) => Promise<T>;

/**
 * Questions are queued: a 2026-07-28 server may send several input requests in one round
 * and the client answers them in parallel, but a terminal can hold one prompt at a time.
 * Prompts render on stderr (stdout is for results) and the progress bar steps aside.
 */
export function createAsk(progress: ProgressBar | undefined): Ask {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(question: (context: Context) => Promise<T>, signal?: AbortSignal) => {
    const turn = queue.then(() => {
      progress?.clear();
      return question({ output: process.stderr, signal });
    });
    queue = turn.catch(() => undefined);
    return turn;
  };
}

/** The prompt library's errors for Ctrl+C (ExitPromptError) and for an aborted signal (AbortPromptError). */
export const isPromptExit = (error: unknown) => error instanceof Error && error.name === "ExitPromptError";

/** Whether questions can be asked: a person on stdin, and a terminal on stderr to show the prompts. */
export const canAsk = () => process.stdin.isTTY === true && process.stderr.isTTY === true;
