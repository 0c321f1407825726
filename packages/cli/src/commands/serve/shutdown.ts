/**
 * How `mcpkit serve` stops. The first SIGINT or SIGTERM asks the server to stop: it stops
 * accepting, fails its running tasks, answers its running requests with an error, closes
 * its listeners, and has `timeoutMs` to do so; past that, or at a second signal, the
 * process exits at once.
 */
export interface Shutdown {
  /** Resolves with the first signal. */
  readonly requested: Promise<NodeJS.Signals>;
  /** Serving ended another way (the client left, a proxied server exited): the deadline runs from now. */
  begin(): void;
  /** The stopping is done: exits the process with `code`. */
  finish(code: number): never;
}

export interface ShutdownOptions {
  timeoutMs: number;
  /** Where progress is told (default stderr). */
  write?: (line: string) => void;
  /** Default process.exit; tests pass their own. */
  exit?: (code: number) => never;
}

/** Exit codes for a process ended by a signal: 128 + its number. */
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export function shutdownOnSignals(options: ShutdownOptions): Shutdown {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const seconds = `${Math.round(options.timeoutMs / 100) / 10} s`;
  let first: NodeJS.Signals | undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  let requested!: (signal: NodeJS.Signals) => void;
  const begin = () => {
    // Not unref'd: it must fire when something the server holds keeps the process alive.
    deadline ??= setTimeout(() => {
      write(`mcpkit: still stopping after ${seconds}: exiting now`);
      exit(1);
    }, options.timeoutMs);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (first !== undefined) {
      write(`mcpkit: ${signal} again: exiting now`);
      exit(SIGNAL_EXIT[signal] ?? 1);
      return;
    }
    first = signal;
    write(`mcpkit: ${signal}: stopping (at most ${seconds}; a second signal exits at once)`);
    begin();
    requested(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    requested: new Promise((resolve) => {
      requested = resolve;
    }),
    begin,
    finish(code) {
      clearTimeout(deadline);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (first !== undefined) write("mcpkit: stopped");
      return exit(code);
    },
  };
}

/** Resolves with the first SIGINT or SIGTERM, for a command that stops at once (mcpkit dev). */
export function firstSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
}
