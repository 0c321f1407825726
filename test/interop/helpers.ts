import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Shared plumbing for the interoperability tests: paths, bounded waits, process cleanup. */

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The `mcpkit` command; it imports packages/cli/dist, so the workspace must be built. */
export const MCPKIT_BIN = join(ROOT, "packages/cli/bin/mcpkit.js");

export function assertBuilt(): void {
  if (!existsSync(join(ROOT, "packages/cli/dist/main.js")))
    throw new Error("packages/cli/dist is missing: run `npx tsc -b packages/mcpkit packages/cli` first");
}

const require = createRequire(import.meta.url);
const officialPackageJson = require.resolve("@modelcontextprotocol/server-everything/package.json");
const officialPackage = JSON.parse(readFileSync(officialPackageJson, "utf8")) as { bin: Record<string, string> };

/** The official reference server, from its package's `bin` (run with the `stdio` argument). */
export const OFFICIAL_SERVER_DIR = dirname(officialPackageJson);
export const OFFICIAL_SERVER_ENTRY = join(
  OFFICIAL_SERVER_DIR,
  officialPackage.bin["mcp-server-everything"] ?? "dist/index.js",
);
/** The official server's docs, served as static resources and (instructions.md) as its instructions. */
export const OFFICIAL_DOCS_DIR = join(dirname(OFFICIAL_SERVER_ENTRY), "docs");

/**
 * Waits until `probe` gives something other than undefined/false (the library tests'
 * `until`: a probe's promise is awaited); fails after its time.
 */
export { sleep, until as waitFor } from "../../packages/mcpkit/test/stdio/helpers.js";

export function isAlive(pid: number | null | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Last-resort cleanup for a child a test spawned (after the client's own close). */
export function killIfAlive(pid: number | null | undefined): void {
  if (!pid || !isAlive(pid)) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The loose shape of a content block, for assertions on both clients' results. */
export interface Block {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
  annotations?: { audience?: string[]; priority?: number };
}

export function blocks(result: unknown): Block[] {
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) throw new Error(`Not a tool result: ${JSON.stringify(result)}`);
  return content as Block[];
}

/** The text of the first text block. */
export function firstText(result: unknown): string {
  const block = blocks(result).find((b) => b.type === "text");
  if (block?.text === undefined) throw new Error(`No text block in ${JSON.stringify(result)}`);
  return block.text;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(base64: string | undefined): boolean {
  return base64 !== undefined && Buffer.from(base64, "base64").subarray(0, 8).equals(PNG_SIGNATURE);
}

/** About 1 MiB of text mixing 1-, 2-, 3- and 4-byte UTF-8 characters, so pipe chunks split characters. */
export function bigMultibyteText(): string {
  const unit = "aé€😀 ĳ中文 — ";
  return unit.repeat(Math.ceil((1024 * 1024) / Buffer.byteLength(unit)));
}

/** A reference server's entry script, from its package's `bin`. */
function binOf(pkg: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> | string };
  return join(dirname(manifest), typeof bin === "string" ? bin : (Object.values(bin)[0] as string));
}

/** The command lines of the third-party servers the interop suite runs (dev dependencies). */
export const THIRD_PARTY = {
  everything: [process.execPath, OFFICIAL_SERVER_ENTRY],
  filesystem: [process.execPath, binOf("@modelcontextprotocol/server-filesystem")],
  memory: [process.execPath, binOf("@modelcontextprotocol/server-memory")],
  fastmcp: [process.execPath, fileURLToPath(new URL("fixtures/fastmcp-server.mjs", import.meta.url))],
};

/** A port the OS has just given out and taken back: for servers that cannot listen on port 0 and say which. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
