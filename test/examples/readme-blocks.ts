import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Reading the README's commands as a reader would type them. */

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const README = readFileSync(`${ROOT}README.md`, "utf8");
export const CLI = `${ROOT}packages/cli/bin/mcpkit.js`;

/** The fenced blocks of one language in the README section that starts with `heading`. */
export function blocks(heading: string, language: string): string[] {
  const start = README.indexOf(heading);
  const section = README.slice(start, README.indexOf("\n## ", start + heading.length));
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1] as string);
}

/** Shell words: double and single quotes group, nothing else is interpreted. */
export const words = (line: string) =>
  [...line.matchAll(/([^\s"']+)?(?:"([^"]*)"|'([^']*)')?([^\s"']*)/g)]
    .map((m) => (m[1] ?? "") + (m[2] ?? m[3] ?? "") + (m[4] ?? ""))
    .filter((w) => w !== "");
