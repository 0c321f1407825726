import { type LintRule, problem } from "../rule.js";

/** A rough count: about four bytes of JSON per token in the tokenizers models use. */
const estimatedTokens = (bytes: number) => Math.round(bytes / 4);

export const toolsListSize: LintRule = {
  id: "tools-list-size",
  severity: "warning",
  summary: "The tools the server lists fit a model's context: at most 100 KB of JSON by default (--max-list-bytes).",
  fix: "Shorten descriptions and schemas, split the server, or let a catalog answer (mcpkit's toolCatalog lists search_tools and call_tool past a threshold).",
  check: ({ toolsBytes }, { maxListBytes }) =>
    toolsBytes !== undefined && toolsBytes > maxListBytes
      ? [
          problem(
            toolsListSize,
            "server",
            `tools/list is ${toolsBytes.toLocaleString("en-US")} bytes (about ${estimatedTokens(toolsBytes).toLocaleString("en-US")} tokens), over ${maxListBytes.toLocaleString("en-US")}: every conversation pays for it before the first word`,
          ),
        ]
      : [],
};

export const listFailed: LintRule = {
  id: "list-failed",
  severity: "error",
  summary: "Each list the server's capabilities offer can be read: every page answers, and the cursors end.",
  fix: "Answer each list the capabilities declare (or stop declaring it); a nextCursor must lead to the next page, never back to one already read.",
  check: ({ failures }) => failures.map((f) => problem(listFailed, "server", `${f.list} failed: ${f.message}`)),
};
