import type { Tool } from "../../protocol/types/features.js";

/**
 * Ranks tools for a query with BM25 (Robertson & Zaragoza, "The Probabilistic Relevance
 * Framework", 2009) over a tool's name, title, description and parameter names, the
 * fields weighted (a word in the name says more than one in the description). No
 * randomness and a name order for ties: the same catalog and query always rank the same.
 */

const K1 = 1.2;
const B = 0.75;
const WEIGHTS = { name: 3, title: 2, params: 1.5, description: 1 } as const;

const STOP = new Set(
  "a an and are as at be by for from has have how i in is it its of on or that the this to was what when where which who will with you your can do does all any".split(
    " ",
  ),
);

/** A word's plain stem: enough that "repositories" meets "repository" and "listing" meets "list". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  return word;
}

/** Words of a text: camelCase, snake_case, kebab-case and paths split; lower case, stemmed, stop words out. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP.has(w))
    .map(stem);
}

function parameterNames(tool: Tool): string {
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties;
  return properties ? Object.keys(properties).join(" ") : "";
}

interface Indexed {
  tool: Tool;
  /** Weighted term frequencies. */
  terms: Map<string, number>;
  length: number;
}

export interface Hit {
  tool: Tool;
  score: number;
}

export class ToolIndex {
  private readonly docs: Indexed[];
  private readonly df = new Map<string, number>();
  private readonly averageLength: number;

  constructor(tools: readonly Tool[]) {
    this.docs = tools.map((tool) => {
      const terms = new Map<string, number>();
      let length = 0;
      const add = (text: string | undefined, weight: number) => {
        for (const w of words(text ?? "")) {
          terms.set(w, (terms.get(w) ?? 0) + weight);
          length += weight;
        }
      };
      add(tool.name, WEIGHTS.name);
      add(tool.title, WEIGHTS.title);
      add(parameterNames(tool), WEIGHTS.params);
      add(tool.description, WEIGHTS.description);
      for (const term of terms.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
      return { tool, terms, length };
    });
    this.averageLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  get size(): number {
    return this.docs.length;
  }

  /** Every tool that shares a word with the query, best first (ties by name). */
  search(query: string): Hit[] {
    const terms = [...new Set(words(query))];
    const n = this.docs.length;
    const hits: Hit[] = [];
    for (const doc of this.docs) {
      let score = 0;
      for (const term of terms) {
        const tf = doc.terms.get(term);
        if (tf === undefined) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / this.averageLength));
      }
      if (score > 0) hits.push({ tool: doc.tool, score });
    }
    return hits.sort(
      (a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0),
    );
  }
}
