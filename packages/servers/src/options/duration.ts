import { UsageError } from "./usage-error.js";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export interface DurationOptions {
  /** The unit of a bare number: seconds for most flags, milliseconds for those named in ms. */
  bare?: "s" | "ms";
  /** The least allowed, in ms (1; 0 where 0 turns something off). */
  min?: number;
}

/** A duration flag: "90" (in the bare unit, seconds by default), "500ms", "90s", "15m" or "2h"; in ms. */
export function durationMs(value: string, flag: string, { bare = "s", min = 1 }: DurationOptions = {}): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (UNITS[match[2] ?? bare] as number) : Number.NaN;
  if (!(ms >= min) || !Number.isSafeInteger(Math.round(ms))) {
    const examples = bare === "s" ? "90 (seconds), 90s" : "5000 (milliseconds), 5s";
    throw new UsageError(`${flag} takes a duration such as ${examples}, 15m or 2h, not "${value}"`);
  }
  return Math.round(ms);
}
