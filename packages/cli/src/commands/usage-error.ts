/** A mistake on the command line; the message says how to fix it. Every command exits 2 on one. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The exit code of a usage error, as commander's own (an unknown option, a missing value). */
export const USAGE_EXIT = 2;
