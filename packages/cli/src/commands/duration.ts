import { UsageError } from "./usage-error.js";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration flag: "90" (seconds), "500ms", "90s", "15m" or "2h"; in ms. */
export function durationMs(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (UNITS[match[2] ?? "s"] as number) : Number.NaN;
  if (!(ms >= 1) || !Number.isSafeInteger(Math.round(ms))) {
    throw new UsageError(`${flag} takes a duration such as 90 (seconds), 90s, 15m or 2h, not "${value}"`);
  }
  return Math.round(ms);
}
