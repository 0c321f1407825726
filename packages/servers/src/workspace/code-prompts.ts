import type { McpServer } from "mcpkit/server";
import { asProtocolError, fsError, WorkspaceError } from "./errors.js";
import { completeFilePath } from "./files/complete-path.js";
import { fileContents } from "./files/content.js";
import { displayPath, guardPath } from "./files/guard.js";
import { readRegularFile } from "./files/open.js";
import { detectLanguage, LANGUAGES, languageOfPath } from "./language.js";
import { fenced, user } from "./prompt-parts.js";
import type { RootScope } from "./roots/client-roots.js";

const FOCUSES = ["correctness", "security", "performance", "readability", "error handling", "tests"];

const startingWith = (values: readonly string[], typed: string) =>
  values.filter((v) => v.toLowerCase().startsWith(typed.toLowerCase()));

/**
 * review_code(file_path, focus?) of seed 003, with the file read from the workspace
 * (through the sandbox) and embedded; explain-code(code, language?) of seed 004, with the
 * language detected when none is given.
 */
export function registerCodePrompts(server: McpServer, deps: { scope: RootScope; maxReadBytes: number }): void {
  server.prompt(
    "review_code",
    {
      title: "Review a file",
      description: "Reviews the quality of a file of the workspace and suggests improvements",
      args: {
        file_path: { description: "The file, relative to the first allowed directory or absolute", required: true },
        focus: { description: `What to look at most: ${FOCUSES.join(", ")}, or your own words` },
      },
      complete: {
        file_path: async (value, { ctx }) => completeFilePath(await deps.scope.areas(ctx).catch(() => []), value),
        focus: (value) => startingWith(FOCUSES, value),
      },
    },
    async ({ file_path = "", focus }, ctx) => {
      try {
        const target = await guardPath(await deps.scope.areas(ctx), file_path);
        const bytes = await readRegularFile([target.area], target.real, file_path, deps.maxReadBytes).catch(
          (error: unknown) => {
            throw fsError(error, file_path);
          },
        );
        const contents = fileContents(target.real, bytes);
        if (!("text" in contents)) throw new WorkspaceError(`${file_path} is not a text file (${contents.mimeType})`);
        const shown = displayPath(target.area, target.real);
        const language = languageOfPath(target.real) ?? detectLanguage(contents.text);
        const aim = focus ? ` Focus on ${focus} above all.` : "";
        return {
          description: `Review of ${shown}${focus ? ` (focus: ${focus})` : ""}`,
          messages: [
            user(
              `Please review the ${language ? `${language} ` : ""}code in ${shown} (below).${aim} Look at correctness and edge cases, readability and naming, error handling, security, and performance. For each problem, give the line, say why it matters and how to fix it; end with the most important improvements first.`,
            ),
            { role: "user", content: { type: "resource", resource: contents } },
          ],
        };
      } catch (error) {
        throw asProtocolError(error);
      }
    },
  );

  server.prompt(
    "explain-code",
    {
      title: "Explain code",
      description: "Explains how a piece of code works",
      args: {
        code: { description: "The code to explain", required: true },
        language: { description: "Its programming language (detected when left out)" },
      },
      complete: { language: (value) => startingWith(LANGUAGES, value) },
    },
    ({ code = "", language }) => {
      const detected = language ? undefined : detectLanguage(code);
      const named = language || detected || "Unknown";
      return {
        description: detected ? `Explain ${detected} code (language detected)` : `Explain ${named} code`,
        messages: [
          user(
            `Explain how this ${named} code works:\n\n${fenced(code, named === "Unknown" ? "" : named.toLowerCase())}`,
          ),
        ],
      };
    },
  );
}
