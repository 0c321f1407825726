/**
 * Glob patterns for search_files: `*` and `?` within a name, `**` across directories,
 * `[abc]`, `[a-z]`, `[!x]` and `{a,b}`. A pattern without "/" matches names at any depth
 * ("*.ts" finds every TypeScript file). Matching is done segment by segment with bounded
 * dynamic programming, not with a regular expression, so no pattern can backtrack for
 * long (a model-chosen regex could stall the server).
 */

type Token = { t: "char"; c: string } | { t: "any" } | { t: "star" } | { t: "class"; negate: boolean; set: string[] };

const MAX_PATTERN = 500;
const MAX_ALTERNATIVES = 64;

/** Expands {a,b} alternatives (nested too), at most MAX_ALTERNATIVES. */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf("{");
  if (open === -1) return [pattern];
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      close = i;
      break;
    } else if (c === "," && depth === 1) commas.push(i);
  }
  if (close === -1) return [pattern];
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  const bounds = [open, ...commas, close];
  const out: string[] = [];
  for (let i = 0; i < bounds.length - 1; i++) {
    const choice = pattern.slice((bounds[i] as number) + 1, bounds[i + 1]);
    for (const rest of expandBraces(head + choice + tail)) {
      out.push(rest);
      if (out.length > MAX_ALTERNATIVES)
        throw new Error(`The pattern expands to more than ${MAX_ALTERNATIVES} choices`);
    }
  }
  return out;
}

function tokenize(segment: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === "*") {
      if (tokens.at(-1)?.t !== "star") tokens.push({ t: "star" });
    } else if (c === "?") tokens.push({ t: "any" });
    else if (c === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close === -1) {
        tokens.push({ t: "char", c });
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      const set: string[] = [];
      for (let j = 0; j < body.length; j++) {
        const from = body[j] as string;
        if (body[j + 1] === "-" && j + 2 < body.length) {
          set.push(`${from}-${body[j + 2]}`);
          j += 2;
        } else set.push(from);
      }
      tokens.push({ t: "class", negate, set });
      i = close;
    } else if (c === "\\" && i + 1 < segment.length) tokens.push({ t: "char", c: segment[++i] as string });
    else tokens.push({ t: "char", c });
  }
  return tokens;
}

function matchesClass(token: Extract<Token, { t: "class" }>, c: string): boolean {
  const hit = token.set.some((s) => (s.length === 3 && s[1] === "-" ? c >= s[0]! && c <= s[2]! : s === c));
  return hit !== token.negate;
}

/** One name against one segment's tokens: the classic wildcard match, O(name × pattern). */
function matchSegment(tokens: Token[], name: string): boolean {
  let p = 0;
  let n = 0;
  let starP = -1;
  let starN = 0;
  while (n < name.length) {
    const token = tokens[p];
    const c = name[n] as string;
    if (
      token &&
      (token.t === "any" || (token.t === "char" && token.c === c) || (token.t === "class" && matchesClass(token, c)))
    ) {
      p++;
      n++;
    } else if (token?.t === "star") {
      starP = p++;
      starN = n;
    } else if (starP !== -1) {
      p = starP + 1;
      n = ++starN;
    } else return false;
  }
  while (tokens[p]?.t === "star") p++;
  return p === tokens.length;
}

type Segment = "**" | Token[];

/** Path segments against pattern segments, `**` spanning zero or more; memoized. */
function matchPath(pattern: Segment[], parts: string[]): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (parts.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === pattern.length) result = j === parts.length;
    else {
      const seg = pattern[i] as Segment;
      if (seg === "**") result = go(i + 1, j) || (j < parts.length && go(i, j + 1));
      else result = j < parts.length && matchSegment(seg, parts[j] as string) && go(i + 1, j + 1);
    }
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}

/** A matcher for "/"-separated relative paths. Throws a readable Error for an unusable pattern. */
export function compileGlob(pattern: string): (relPath: string) => boolean {
  if (pattern === "") throw new Error("The pattern is empty");
  if (pattern.length > MAX_PATTERN) throw new Error(`The pattern is longer than ${MAX_PATTERN} characters`);
  const alternatives = expandBraces(pattern).map((alt) => {
    const anywhere = !alt.includes("/");
    const segments: Segment[] = alt
      .split("/")
      .filter((s) => s !== "" && s !== ".")
      .map((s) => (s === "**" ? "**" : tokenize(s)));
    return anywhere ? (["**", ...segments] as Segment[]) : segments;
  });
  return (relPath) => {
    const parts = relPath.split("/").filter((s) => s !== "");
    return alternatives.some((segments) => matchPath(segments, parts));
  };
}
