import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import { fsError, WorkspaceError } from "../errors.js";
import type { FileAccess } from "./access.js";
import { makeDirectoryInside, renameInside } from "./confined.js";
import { unifiedDiff } from "./diff.js";
import { applyEdits } from "./edit.js";
import { displayPath, guardPath, refuseGitInternals } from "./guard.js";
import { looksLikeText } from "./mime.js";
import { readRegularFile } from "./open.js";
import { writeRegularFile } from "./write.js";

const pathArg = z
  .string()
  .describe("A path inside the allowed directories: absolute, or relative to the first of them");

/**
 * write_file, edit_file, move_file, create_directory: registered only with --allow-write.
 * None writes inside a .git directory.
 */
export function registerWriteTools(server: McpServer, access: FileAccess): void {
  server.tool(
    "write_file",
    {
      title: "Write a file",
      description:
        "Creates a file, or replaces the whole content of an existing one, with UTF-8 text. The parent directory must exist.",
      input: z.object({ path: pathArg, content: z.string().describe("The complete new content") }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ path, content }, ctx) => {
      const areas = await access.scope.areas(ctx);
      const target = await guardPath(areas, path, { mayCreate: true });
      refuseGitInternals(target);
      const { created, bytes } = await writeRegularFile(areas, target, content);
      return `${created ? "Created" : "Wrote"} ${displayPath(target.area, target.real)} (${bytes} bytes)`;
    },
  );

  server.tool(
    "edit_file",
    {
      title: "Edit a file",
      description:
        "Replaces exact pieces of text in a file, in order; each oldText must occur exactly once. Returns the change as a unified diff. With dryRun, shows the diff and writes nothing.",
      input: z.object({
        path: pathArg,
        edits: z
          .array(
            z.object({
              oldText: z.string().describe("Text to find: exact, whitespace included, occurring once"),
              newText: z.string().describe("Text to put in its place"),
            }),
          )
          .min(1)
          .max(50),
        dryRun: z.boolean().describe("Preview the diff without writing (default false)").optional(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ path, edits, dryRun }, ctx) => {
      const areas = await access.scope.areas(ctx);
      const target = await guardPath(areas, path);
      refuseGitInternals(target);
      const bytes = await readRegularFile(areas, target.real, path, access.maxReadBytes);
      if (!looksLikeText(bytes)) throw new WorkspaceError(`Refused: ${path} is not a UTF-8 text file`);
      const before = bytes.toString("utf8");
      const after = applyEdits(before, edits);
      const shown = displayPath(target.area, target.real);
      const diff = unifiedDiff(before, after, shown.replace(/^\//, ""));
      if (diff === "") return `No change: the edits leave ${shown} as it is`;
      if (dryRun) return `Dry run: nothing was written. The edits would change ${shown} like this:\n\n${diff}`;
      await writeRegularFile(areas, target, after);
      return `Edited ${shown}:\n\n${diff}`;
    },
  );

  server.tool(
    "move_file",
    {
      title: "Move or rename",
      description: "Moves or renames a file or directory. Refuses to overwrite: the destination must not exist.",
      input: z.object({ source: pathArg, destination: pathArg }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ source, destination }, ctx) => {
      const areas = await access.scope.areas(ctx);
      const from = await guardPath(areas, source);
      const to = await guardPath(areas, destination, { mayCreate: true });
      refuseGitInternals(from);
      refuseGitInternals(to);
      if (from.real === from.area.real) throw new WorkspaceError(`Refused: ${source} is an allowed directory itself`);
      if (to.exists) throw new WorkspaceError(`Refused: ${destination} already exists; move_file never overwrites`);
      const parent = await stat(dirname(to.real)).catch(() => undefined);
      if (!parent?.isDirectory()) {
        throw new WorkspaceError(`The parent directory of ${destination} does not exist; create it first`);
      }
      try {
        await renameInside(areas, from.entry, to.real, { from: source, to: destination });
      } catch (error) {
        throw fsError(error, `${source} -> ${destination}`);
      }
      return `Moved ${displayPath(from.area, from.entry)} to ${displayPath(to.area, to.real)}`;
    },
  );

  server.tool(
    "create_directory",
    {
      title: "Create a directory",
      description: "Creates a directory and any missing parents; succeeds if it already exists.",
      input: z.object({ path: pathArg }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ path }, ctx) => {
      const areas = await access.scope.areas(ctx);
      const target = await guardPath(areas, path, { mayCreate: true });
      refuseGitInternals(target);
      const shown = displayPath(target.area, target.real);
      if (target.exists) {
        const info = await stat(target.real);
        if (!info.isDirectory()) throw new WorkspaceError(`Refused: ${path} exists and is not a directory`);
        return `${shown} already exists`;
      }
      try {
        await makeDirectoryInside(areas, target.real, path);
      } catch (error) {
        throw fsError(error, path);
      }
      return `Created ${shown}`;
    },
  );
}
