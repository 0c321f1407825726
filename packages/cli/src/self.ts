import { fileURLToPath } from "node:url";
import { VERSION } from "./version.js";

/** This installation's `mcpkit` script. */
export const MCPKIT_BIN = fileURLToPath(new URL("../bin/mcpkit.js", import.meta.url));

/**
 * The command that runs this mcpkit, for a configuration another program reads: this Node
 * and this installation's script, absolute (a client starts servers from its own folder,
 * with its own PATH); or, with `npx`, the published package at this version.
 */
export function mcpkitCommand(npx = false): [string, ...string[]] {
  return npx ? ["npx", "-y", `@mcpkit/cli@${VERSION}`] : [process.execPath, MCPKIT_BIN];
}

/** A command line a POSIX shell reads back as these words (single quotes where needed). */
export function shellCommand(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)).join(" ");
}
