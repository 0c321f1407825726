import { appendFileSync } from "node:fs";
import fc from "fast-check";
import { type Frame, hostileFrame, validRequest } from "./frames.js";
import { type Figures, newFigures } from "./oracle.js";

/**
 * How much to fuzz. `npm test` runs a bounded slice with a fixed seed; `npm run fuzz`
 * (scripts/fuzz.mjs) sets MCPKIT_FUZZ=long, the frame counts and a fresh seed.
 */
const env = process.env;
export const LONG = env.MCPKIT_FUZZ === "long";
export const SEED = env.MCPKIT_FUZZ_SEED ? Number(env.MCPKIT_FUZZ_SEED) : 20261124;
const DEFAULT_FRAMES = LONG
  ? { stdio: 1_000_000, http: 200_000, memory: 200_000 }
  : { stdio: 2500, http: 400, memory: 2500 };
/** The largest huge frame: 17 MiB (over the 16 MiB message limit) in a long run. */
export const HUGE_MAX = LONG ? 17 * 1024 * 1024 : 512 * 1024;
/** A long run has no time limit of its own; a slice must end in a minute even on a loaded machine. */
export const TIMEOUT_MS = LONG ? 24 * 3_600_000 : 120_000;

export function frameBudget(kind: keyof typeof DEFAULT_FRAMES): number {
  const given = env[`MCPKIT_FUZZ_${kind.toUpperCase()}_FRAMES`];
  return given ? Number(given) : DEFAULT_FRAMES[kind];
}

/** A transport under fuzz: it sends a run's frames, each followed by a valid request. */
export interface Driver {
  readonly transport: string;
  start(): Promise<void>;
  /** False once the server process or connection is gone. */
  alive(): boolean;
  /** Sends `frames`, each followed by a `valid()` request (counted in `figures`); resolves with the problems seen. */
  run(frames: Frame[], valid: () => ReturnType<typeof validRequest>, figures: Figures): Promise<string[]>;
  /** The server's heap after a GC, MiB. */
  heapMiB(): Promise<number>;
  /** Why it died, when it did. */
  death(): string;
  close(): Promise<void>;
}

const MEAN_RUN = 40;

/**
 * Runs a property over `total` frames (in runs of up to 80): after every run the server
 * is alive, every valid request got its answer and every message passed the oracle. A
 * failure names the seed and the shrunk run of frames.
 */
export async function fuzz(driver: Driver, total: number): Promise<Figures> {
  const figures = newFigures(driver.transport, SEED);
  await driver.start();
  let n = 0;
  const valid = () => validRequest(n++);
  // Warm up (code paths compiled, caches filled) before the baseline.
  const warm = fc.sample(fc.array(hostileFrame(64 * 1024), { maxLength: 20 }), { seed: SEED, numRuns: 5 });
  for (const frames of warm) await driver.run(frames, valid, newFigures(driver.transport, SEED));
  figures.memoryBeforeMiB = await driver.heapMiB();
  const started = Date.now();
  // Rounds until the budget is spent (run lengths vary), each with its own seed.
  for (let round = 0; figures.frames < total; round++) {
    const seed = SEED + round;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileFrame(HUGE_MAX), { minLength: 1, maxLength: MEAN_RUN * 2, size: "max" }),
          async (frames) => {
            if (!driver.alive()) {
              // A shrinking step after a crash: start afresh so the smallest killer is found.
              await driver.close();
              await driver.start();
            }
            const problems = await driver.run(frames, valid, figures);
            if (!driver.alive()) throw new Error(`the server died: ${driver.death()}`);
            if (problems.length > 0) throw new Error(problems.slice(0, 3).join("\n"));
          },
        ),
        { seed, numRuns: Math.max(1, Math.ceil((total - figures.frames) / MEAN_RUN)) },
      );
    } catch (error) {
      const cause = (error as Error).cause;
      throw new Error(
        `${driver.transport} fuzz failed; reproduce with MCPKIT_FUZZ_SEED=${seed}\n${(error as Error).message}\n${String(cause ?? "")}`,
      );
    }
  }
  figures.ms = Date.now() - started;
  figures.memoryAfterMiB = await driver.heapMiB();
  if (env.MCPKIT_FUZZ_REPORT) appendFileSync(env.MCPKIT_FUZZ_REPORT, `${JSON.stringify(figures)}\n`);
  return figures;
}

/** Waits for `promise`, or fails with `what` after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
