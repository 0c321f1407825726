import { McpError } from "mcpkit/jsonrpc";
import type { Context } from "mcpkit/server";
import { z } from "zod";

/** The argument that asks for ranking, shared by search_files and search_content. */
export const rankForArgument = z
  .string()
  .min(1)
  .max(500)
  .describe(
    "What you are looking for, in words; the hits are then ranked by relevance to it (by the client's model when the client offers sampling)",
  );

/** Hits sent to the client's model at most; the rest keep the keyword order after them. */
const MAX_SAMPLED = 200;
/** How many the model is asked to pick. */
const MAX_PICKS = 20;

/** A search hit: `id` names it in the model's answer (a path, or path:line), `line` is what is shown. */
export interface Hit {
  id: string;
  line: string;
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? [];

/** Hits ordered by how many of the request's words they contain (a word in the path counts twice). */
function byKeywords(hits: readonly Hit[], rankFor: string): Hit[] {
  const wanted = new Set(words(rankFor));
  const score = (hit: Hit) => {
    const pathWords = new Set(words(hit.id));
    return (
      words(hit.line).reduce((sum, w) => sum + (wanted.has(w) ? 1 : 0), 0) +
      [...pathWords].filter((w) => wanted.has(w)).length
    );
  };
  return hits
    .map((hit, i) => ({ hit, i, s: score(hit) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((e) => e.hit);
}

/** The ids the model named, in its order, among the hits (anything else in its answer is ignored). */
function picks(answer: string, hits: readonly Hit[]): Hit[] {
  const byId = new Map(hits.map((h) => [h.id, h]));
  const chosen: Hit[] = [];
  for (const raw of answer.split("\n")) {
    const id = raw
      .trim()
      .replace(/^(?:[-*•]|\d+[.)])\s*/, "")
      .replace(/^`(.*)`$/, "$1")
      .trim();
    const hit = byId.get(id);
    if (hit && !chosen.includes(hit)) chosen.push(hit);
  }
  return chosen;
}

/**
 * Orders search hits by relevance to `rankFor` (seed 003 §6.1: a filesystem server asks
 * the client's model which of many hits matter most). With sampling, the model's picks
 * come first, then the rest by keyword overlap; without it, or when the model cannot
 * answer, keyword overlap alone, and the note says which happened. The model's answer
 * only reorders hits: it can neither add nor hide one.
 */
export async function rankHits(
  hits: readonly Hit[],
  rankFor: string,
  ctx: Context,
): Promise<{ hits: Hit[]; note: string }> {
  const keyworded = byKeywords(hits, rankFor);
  if (hits.length < 2) return { hits: keyworded, note: "" };
  if (!ctx.client.capabilities.sampling)
    return {
      hits: keyworded,
      note: `[ranked by keyword overlap with "${rankFor}": the client offers no sampling, so no model ranked them]`,
    };
  const offered = keyworded.slice(0, MAX_SAMPLED);
  let answer: string;
  try {
    const result = await ctx.sample(
      {
        systemPrompt:
          "You rank search results by relevance. Answer with identifiers from the list only, one per line, most relevant first.",
        messages: [
          {
            role: "user",
            content: {
              type: "text",
              text: `Which of these search hits are most relevant to: ${rankFor}\n\nName at most ${MAX_PICKS}, one identifier (the part before " — ") per line, most relevant first.\n\n${offered.map((h) => `${h.id} — ${h.line}`).join("\n")}`,
            },
          },
        ],
        maxTokens: 1000,
        modelPreferences: { speedPriority: 0.8, intelligencePriority: 0.5, costPriority: 0.5 },
        includeContext: "none",
      },
      { key: "rank-hits" },
    );
    const content = result.content as { type?: string; text?: string };
    answer = content.type === "text" ? (content.text ?? "") : "";
  } catch (error) {
    // A malformed answer inside a multi round-trip request stays the protocol error it is.
    if (error instanceof McpError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return { hits: keyworded, note: `[ranked by keyword overlap: the client's model could not rank them (${why})]` };
  }
  const chosen = picks(answer, offered);
  if (chosen.length === 0)
    return { hits: keyworded, note: "[ranked by keyword overlap: the client's model named none of the hits]" };
  const rest = keyworded.filter((h) => !chosen.includes(h));
  return {
    hits: [...chosen, ...rest],
    note: `[ranked by the client's model (sampling) for "${rankFor}": its ${chosen.length} pick${chosen.length === 1 ? "" : "s"} first, then the rest by keyword overlap]`,
  };
}

/** A search answer's lines as found, or, given `rankFor`, ranked and headed by a note saying how. */
export async function rankLines(
  lines: string[],
  idOf: (line: string) => string,
  rankFor: string | undefined,
  ctx: Context,
): Promise<string[]> {
  if (rankFor === undefined) return lines;
  const result = await rankHits(
    lines.map((line) => ({ id: idOf(line), line })),
    rankFor,
    ctx,
  );
  return [...(result.note ? [result.note] : []), ...result.hits.map((h) => h.line)];
}
