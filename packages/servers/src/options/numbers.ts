import { UsageError } from "./usage-error.js";

/** A flag's value as a whole number of at least `min`, or a usage error that names the flag. */
export function wholeNumber(value: string, flag: string, min = 0): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(
      min === 1
        ? `${flag} must be a positive whole number, not "${value}"`
        : `${flag} must be a whole number of at least ${min}, not "${value}"`,
    );
  return n;
}

/** A flag's value as a positive whole number. */
export const positive = (value: string, flag: string) => wholeNumber(value, flag, 1);
