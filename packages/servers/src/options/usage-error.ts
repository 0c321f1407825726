/**
 * A mistake in how a server was configured (a flag, an environment variable, an option
 * that needs another); the message says how to fix it. The mcpkit command exits 2 on one.
 */
export class UsageError extends Error {
  override name = "UsageError";
}
