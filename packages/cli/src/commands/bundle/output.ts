import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../usage-error.js";

/** What mcpkit bundle writes, and so may replace. */
export type Output = "bundle" | "server.json";

/** Where the output goes: --out, or in the folder --out names, or `fallback`; `name` is its file name in a folder. */
export function outputFile(out: string | undefined, name: string, fallback: string): string {
  if (out === undefined) return resolve(fallback, name);
  const path = resolve(out);
  return isFolder(path) ? join(path, name) : path;
}

/**
 * Refuses to replace a file that is not what the command writes: `--out src/server.ts` must
 * not turn the server's source into a zip. A previous bundle (a zip holding manifest.json)
 * or a previous server.json (its $schema the registry's) is replaced.
 */
export function refuseToReplace(file: string, what: Output): void {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    // Nothing there yet; or a folder, which outputFile writes into.
    if (["ENOENT", "EISDIR"].includes(String((error as NodeJS.ErrnoException).code))) return;
    throw new UsageError(`${file} cannot be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (what === "bundle" ? isBundle(data) : isServerJson(data)) return;
  throw new UsageError(
    `${file} is there and is not ${what === "bundle" ? "an MCP Bundle" : "a server.json"}: mcpkit bundle replaces only its own output; move it away, or give another --out`,
  );
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** A zip (its first local header) that names manifest.json. */
const isBundle = (data: Buffer) =>
  data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) && data.includes("manifest.json");

function isServerJson(data: Buffer): boolean {
  try {
    const json = JSON.parse(data.toString("utf8")) as { $schema?: unknown };
    return typeof json.$schema === "string" && json.$schema.endsWith("/server.schema.json");
  } catch {
    return false;
  }
}
