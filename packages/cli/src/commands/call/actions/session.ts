import type { Client, Progress, ServerDescription } from "mcpkit/client";
import type { ExitCode } from "../exit-codes.js";
import { Interrupted, UsageError } from "../exit-codes.js";
import type { Output } from "../output.js";

/** What an action works with once connected. */
export interface Session {
  client: Client;
  server: ServerDescription;
  out: Output;
  /** Aborted by Ctrl+C: requests given it are cancelled on the server (basic/utilities/cancellation). */
  signal: AbortSignal;
  /** Draws progress notifications (on a terminal only). */
  onprogress?: (progress: Progress) => void;
  /** Erases the progress bar before a result is printed. */
  endProgress(): void;
  /** --detach: a tool call that becomes a task prints the task id and returns at once. */
  detach: boolean;
  /** The server as typed on the command line (for hints that repeat it). */
  target: string;
}

export type Runner = (session: Session) => Promise<ExitCode>;

/**
 * An action reads its words before anything connects, so a mistake on the command line
 * is reported without starting a server; the runner it returns does the work.
 */
export type Action = (args: string[]) => Runner;

/** Settles like `promise`, or rejects with Interrupted when Ctrl+C comes first (for requests that take no signal). */
export function interruptible<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Interrupted());
    signal.addEventListener("abort", stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

export function noArguments(action: string, args: string[]): void {
  if (args.length > 0)
    throw new UsageError(
      `${action} takes no arguments, but got ${args.join(" ")}${args.some((a) => a.startsWith("-")) ? " (options go before the server, and before --)" : ""}`,
    );
}

/** A hint for a name that does not exist: the close ones, else where to look. */
export function suggest(name: string, known: string[], listing: string): string {
  const close = known.filter(
    (k) => k.startsWith(name) || distance(k, name) <= Math.max(1, Math.floor(name.length / 3)),
  );
  return close.length > 0 ? `; did you mean ${close.slice(0, 3).join(", ")}?` : `; \`${listing}\` lists them`;
}

/** Levenshtein distance, for suggestions. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}
