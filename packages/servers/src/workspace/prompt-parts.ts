import type { PromptMessage } from "mcpkit";

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenced(text: string, language = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

export const user = (text: string): PromptMessage => ({ role: "user", content: { type: "text", text } });
