import type { McpServer } from "mcpkit/server";
import { z } from "zod";
import { WorkspaceError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { FileAccess } from "./access.js";
import { guardDirectory } from "./directory.js";
import { formatBytes, truncatedNote } from "./format.js";
import { compileGlob } from "./glob.js";
import { displayPath } from "./guard.js";
import { looksLikeText } from "./mime.js";
import { readRegularFile } from "./open.js";
import { rankForArgument, rankLines } from "./rank.js";
import { walk } from "./walk.js";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

function glob(pattern: string): (rel: string) => boolean {
  try {
    return compileGlob(pattern);
  } catch (error) {
    throw new WorkspaceError(`Invalid glob pattern "${pattern}": ${(error as Error).message}`);
  }
}

/** search_files (by glob), search_content (by literal text). */
export function registerSearchTools(server: McpServer, access: FileAccess): void {
  server.tool(
    "search_files",
    {
      title: "Find files by name",
      description:
        'Paths under a directory matching a glob: "*" and "?" within a name, "**" across directories, [abc], {a,b}. A pattern without "/" matches names at any depth ("*.ts"). .git and node_modules are not searched.',
      input: z.object({
        pattern: z.string().describe('A glob, such as "**/*.test.ts" or "README*"'),
        path: z.string().describe("Where to search (default: the first allowed directory)").optional(),
        exclude: z.array(z.string()).max(20).describe("Globs of paths to leave out").optional(),
        rankFor: rankForArgument.optional(),
      }),
      annotations: READ_ONLY,
    },
    async ({ pattern, path, exclude, rankFor }, ctx) => {
      const target = await guardDirectory(await access.scope.areas(ctx), path);
      const matches = glob(pattern);
      const excluded = (exclude ?? []).map(glob);
      const found: string[] = [];
      let visited = 0;
      let note: string | undefined;
      for await (const entry of walk(target.real, {
        signal: ctx.signal,
        areas: [target.area],
        prune: (e) => excluded.some((x) => x(e.rel)),
      })) {
        if (++visited > LIMITS.walkEntries) {
          note = truncatedNote("entries visited", LIMITS.walkEntries, "search a subdirectory");
          break;
        }
        if (!matches(entry.rel)) continue;
        if (found.length === LIMITS.searchResults) {
          note = truncatedNote("matches", LIMITS.searchResults, "use a narrower pattern");
          break;
        }
        found.push(entry.kind === "directory" ? `${entry.rel}/` : entry.rel);
      }
      const header = `${found.length} match${found.length === 1 ? "" : "es"} for ${pattern} in ${displayPath(target.area, target.real)}`;
      return [header, ...(await rankLines(found, (line) => line, rankFor, ctx)), ...(note ? [note] : [])].join("\n");
    },
  );

  server.tool(
    "search_content",
    {
      title: "Search file contents",
      description: `Lines containing a text (literal, not a regular expression) in the text files under a directory, as "path:line: text". Binary files and files over the read limit are skipped; at most ${LIMITS.contentMatches} matching lines.`,
      input: z.object({
        query: z.string().min(1).max(1000).describe("The text to look for"),
        path: z.string().describe("Where to search (default: the first allowed directory)").optional(),
        include: z.string().describe('A glob of files to search, such as "*.ts"').optional(),
        caseSensitive: z.boolean().describe("Match case exactly (default false)").optional(),
        rankFor: rankForArgument.optional(),
      }),
      annotations: READ_ONLY,
    },
    async ({ query, path, include, caseSensitive, rankFor }, ctx) => {
      const target = await guardDirectory(await access.scope.areas(ctx), path);
      const wanted = include === undefined ? () => true : glob(include);
      const needle = caseSensitive ? query : query.toLowerCase();
      const lines: string[] = [];
      let visited = 0;
      let files = 0;
      let bytesRead = 0;
      let note: string | undefined;
      outer: for await (const entry of walk(target.real, { signal: ctx.signal, areas: [target.area] })) {
        if (++visited > LIMITS.walkEntries) {
          note = truncatedNote("entries visited", LIMITS.walkEntries, "search a subdirectory");
          break;
        }
        if (entry.kind !== "file" || !wanted(entry.rel)) continue;
        let bytes: Buffer;
        try {
          bytes = await readRegularFile([target.area], entry.path, entry.rel, access.maxReadBytes);
        } catch {
          continue; // Too big, vanished, or unreadable: searching goes on.
        }
        bytesRead += bytes.length;
        if (bytesRead > LIMITS.searchBytes) {
          note = `[truncated: searched ${formatBytes(LIMITS.searchBytes)}; search a subdirectory or use an include glob]`;
          break;
        }
        if (!looksLikeText(bytes)) continue;
        files++;
        const textLines = bytes.toString("utf8").split("\n");
        for (let i = 0; i < textLines.length; i++) {
          const line = textLines[i] as string;
          if (!(caseSensitive ? line : line.toLowerCase()).includes(needle)) continue;
          if (lines.length === LIMITS.contentMatches) {
            note = truncatedNote("matching lines", LIMITS.contentMatches, "use a longer query or an include glob");
            break outer;
          }
          const shown = line.length > LIMITS.lineChars ? `${line.slice(0, LIMITS.lineChars)}…` : line;
          lines.push(`${entry.rel}:${i + 1}: ${shown.trimEnd()}`);
        }
      }
      const header = `${lines.length} matching line${lines.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"} searched under ${displayPath(target.area, target.real)}`;
      const byLine = (line: string) => line.slice(0, line.indexOf(": "));
      return [header, ...(await rankLines(lines, byLine, rankFor, ctx)), ...(note ? [note] : [])].join("\n");
    },
  );
}
