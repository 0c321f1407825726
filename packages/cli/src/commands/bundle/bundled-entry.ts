import { serveCommand } from "../serve/index.js";
import { USAGE_EXIT, UsageError } from "../usage-error.js";

/**
 * The entry of a bundle of a built-in server (build.ts): `mcpkit serve NAME --stdio` with
 * the flags fixed when it was bundled, then those the client adds. Only the serve command
 * is in the bundle, and of the built-in servers only NAME.
 */
export async function serveBundled(fixed: readonly string[]): Promise<void> {
  const argv = [process.argv[0] as string, process.argv[1] as string, ...fixed, ...process.argv.slice(2)];
  try {
    const serve = await serveCommand(argv);
    await serve.parseAsync(argv.slice(3), { from: "user" });
  } catch (error) {
    process.stderr.write(`mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? USAGE_EXIT : 1;
  }
}
