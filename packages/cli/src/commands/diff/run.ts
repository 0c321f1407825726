import { readFileSync, statSync } from "node:fs";
import { asSnapshot, diff, diffJson, formatDiff, type Snapshot, SnapshotError } from "mcpkit/testing";
import { UsageError } from "../usage-error.js";

/** The largest snapshot read: a server's surface, not data. */
const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/** `mcpkit diff OLD NEW`: prints the changes; 1 when any breaks. */
export function runDiff(old: string, now: string, options: { json?: boolean }): number {
  const changes = diff(read(old), read(now));
  process.stdout.write(options.json ? diffJson(changes) : formatDiff(changes));
  return changes.breaking.length > 0 ? 1 : 0;
}

function read(path: string): Snapshot {
  let text: string;
  try {
    if (statSync(path).size > MAX_SNAPSHOT_BYTES) throw new UsageError(`${path} is larger than a snapshot can be`);
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `${path}: no such file` : `${path} cannot be read (${code ?? error})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${path} is not JSON (${(error as Error).message}); mcpkit snapshot writes the files diff reads`,
    );
  }
  try {
    return asSnapshot(value, path);
  } catch (error) {
    if (error instanceof SnapshotError) throw new UsageError(error.message);
    throw error;
  }
}
