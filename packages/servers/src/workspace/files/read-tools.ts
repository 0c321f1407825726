import { lstat } from "node:fs/promises";
import { basename } from "node:path";
import type { ContentBlock } from "mcpkit";
import { type McpServer, structured, text } from "mcpkit/server";
import { z } from "zod";
import { fsError, WorkspaceError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { FileAccess } from "./access.js";
import { statInside } from "./confined.js";
import { fileBlock } from "./content.js";
import { formatBytes } from "./format.js";
import { displayPath, guardPath } from "./guard.js";
import { mimeFromName } from "./mime.js";
import { kindOf, readRegularFile } from "./open.js";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const pathArg = z
  .string()
  .describe("A path inside the allowed directories: absolute, or relative to the first of them");

/** read_file, read_multiple_files, get_file_info, list_allowed_directories. */
export function registerReadTools(server: McpServer, access: FileAccess): void {
  server.tool(
    "read_file",
    {
      title: "Read a file",
      description: `Reads one file. Text comes back as text, images as images, other binary files as an embedded resource. Files over ${formatBytes(access.maxReadBytes)} are refused.`,
      input: z.object({ path: pathArg }),
      annotations: READ_ONLY,
    },
    async ({ path }, ctx) => {
      const target = await guardPath(await access.scope.areas(ctx), path);
      return {
        content: [fileBlock(target.real, await readRegularFile([target.area], target.real, path, access.maxReadBytes))],
      };
    },
  );

  server.tool(
    "read_multiple_files",
    {
      title: "Read several files",
      description: `Reads up to ${LIMITS.filesPerRead} files at once; a file that cannot be read is reported in place and does not fail the others.`,
      input: z.object({ paths: z.array(pathArg).min(1).max(LIMITS.filesPerRead) }),
      annotations: READ_ONLY,
    },
    async ({ paths }, ctx) => {
      const areas = await access.scope.areas(ctx);
      const content: ContentBlock[] = [];
      // Each file within the read limit, and the whole answer within four times it.
      let budget = access.maxReadBytes * 4;
      let failed = 0;
      for (const path of paths) {
        try {
          const target = await guardPath(areas, path);
          const bytes = await readRegularFile(areas, target.real, path, access.maxReadBytes);
          if (bytes.length > budget) {
            throw new WorkspaceError(
              `skipped: this call already returned ${formatBytes(4 * access.maxReadBytes - budget)}; read it on its own`,
            );
          }
          budget -= bytes.length;
          content.push(text(`${path}:`), fileBlock(target.real, bytes));
        } catch (error) {
          failed++;
          content.push(text(`${path}: Error: ${(error as Error).message}`));
        }
      }
      // One unreadable file is reported in place; none readable is a failed call.
      return failed === paths.length ? { content, isError: true } : { content };
    },
  );

  server.tool(
    "get_file_info",
    {
      title: "File information",
      description: "Type, size, times, permissions and MIME type of a file or directory.",
      input: z.object({ path: pathArg }),
      annotations: READ_ONLY,
    },
    async ({ path }, ctx) => {
      const target = await guardPath(await access.scope.areas(ctx), path);
      try {
        const info = await statInside([target.area], target.real, path);
        const link = await lstat(target.absolute);
        return structured({
          path: target.absolute,
          type: kindOf(info),
          size: info.size,
          ...(info.isFile() && { mimeType: mimeFromName(basename(target.real)) ?? "unknown" }),
          created: info.birthtime.toISOString(),
          modified: info.mtime.toISOString(),
          accessed: info.atime.toISOString(),
          permissions: (info.mode & 0o777).toString(8),
          ...(link.isSymbolicLink() && { symbolicLinkTo: displayPath(target.area, target.real) }),
        });
      } catch (error) {
        throw fsError(error, path);
      }
    },
  );

  server.tool(
    "list_allowed_directories",
    {
      title: "Allowed directories",
      description:
        "The directories this client may use: the server's roots, narrowed to the client's roots when it declared some.",
      input: z.object({}),
      annotations: READ_ONLY,
    },
    async (_args, ctx) => {
      const areas = await access.scope.areas(ctx);
      if (areas.length === 0) {
        throw new WorkspaceError("No directory is accessible: the client's roots do not overlap the server's roots");
      }
      return structured({ directories: areas.map((a) => a.path) });
    },
  );
}
