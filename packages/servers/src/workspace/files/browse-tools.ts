import type { Dirent } from "node:fs";
import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import { fsError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { FileAccess } from "./access.js";
import { readDirectoryInside } from "./confined.js";
import { guardDirectory } from "./directory.js";
import { truncatedNote } from "./format.js";
import { displayPath } from "./guard.js";
import { walk } from "./walk.js";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const label = (d: Dirent) =>
  d.isSymbolicLink() ? "[LINK]" : d.isDirectory() ? "[DIR]" : d.isFile() ? "[FILE]" : "[OTHER]";

/** list_directory, directory_tree. */
export function registerBrowseTools(server: McpServer, access: FileAccess): void {
  server.tool(
    "list_directory",
    {
      title: "List a directory",
      description: `The entries of one directory, marked [DIR], [FILE], [LINK] or [OTHER]; at most ${LIMITS.listEntries}.`,
      input: z.object({ path: z.string().describe("The directory (default: the first allowed directory)").optional() }),
      annotations: READ_ONLY,
    },
    async ({ path }, ctx) => {
      const target = await guardDirectory(await access.scope.areas(ctx), path);
      let entries: Dirent[];
      try {
        entries = await readDirectoryInside([target.area], target.real, target.shown);
      } catch (error) {
        throw fsError(error, target.shown);
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const lines = entries.slice(0, LIMITS.listEntries).map((d) => `${label(d)} ${d.name}`);
      if (entries.length > LIMITS.listEntries) {
        lines.push(truncatedNote("entries", LIMITS.listEntries, "use search_files with a pattern to narrow"));
      }
      const header = `${displayPath(target.area, target.real)} (${entries.length} entries)`;
      return [header, ...lines].join("\n");
    },
  );

  server.tool(
    "directory_tree",
    {
      title: "Directory tree",
      description: `The tree under a directory, indented two spaces per level, directories ending in "/"; .git and node_modules are not entered. At most ${LIMITS.treeEntries} entries.`,
      input: z.object({
        path: z.string().describe("The directory (default: the first allowed directory)").optional(),
        maxDepth: z.number().int().min(1).max(LIMITS.treeDepth).describe("How many levels (default 5)").optional(),
      }),
      annotations: READ_ONLY,
    },
    async ({ path, maxDepth }, ctx) => {
      const target = await guardDirectory(await access.scope.areas(ctx), path);
      const lines = [`${displayPath(target.area, target.real)}/`];
      let count = 0;
      for await (const entry of walk(target.real, {
        maxDepth: maxDepth ?? 5,
        signal: ctx.signal,
        areas: [target.area],
      })) {
        if (++count > LIMITS.treeEntries) {
          lines.push(truncatedNote("entries", LIMITS.treeEntries, "ask for a subdirectory or a smaller maxDepth"));
          break;
        }
        const name = entry.rel.slice(entry.rel.lastIndexOf("/") + 1);
        const suffix = entry.kind === "directory" ? "/" : entry.kind === "symlink" ? " (link)" : "";
        const skipped = entry.skipped ? " …" : "";
        lines.push(`${"  ".repeat(entry.depth)}${name}${suffix}${skipped}`);
      }
      return lines.join("\n");
    },
  );
}
