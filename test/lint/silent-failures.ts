import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Finds the places in source where a failure can vanish: a `void` expression (a promise
 * nobody handles), a `catch` block with no statement in it (comments do not count), and a
 * promise `.catch` whose handler does nothing. Comments, strings and template text are
 * blanked first, so only code is matched.
 */
export interface Finding {
  file: string;
  line: number;
  kind: "void" | "empty catch" | "empty .catch";
  /** The line's code, trimmed. */
  code: string;
}

const PATTERNS: [Finding["kind"], RegExp][] = [
  // `void x()`, `void this.y`, `void (async () => …)()`; not the type `void`.
  ["void", /(?<![\w$.])void\s+(?=[\w$(!])/g],
  ["empty catch", /\bcatch\s*(?:\([^)]*\))?\s*\{\s*\}/g],
  ["empty .catch", /\.catch\(\s*(?:\([^)]*\)|[\w$]+)\s*=>\s*(?:\{\s*\}|undefined|void 0)\s*\)/g],
];

export function findSilentFailures(root: string, dirs: string[]): Finding[] {
  const findings: Finding[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(join(root, dir))) {
      const text = readFileSync(file, "utf8");
      const code = blankNonCode(text);
      const lines = text.split("\n");
      for (const [kind, pattern] of PATTERNS) {
        for (const match of code.matchAll(pattern)) {
          const line = code.slice(0, match.index).split("\n").length;
          findings.push({ file: relative(root, file), line, kind, code: (lines[line - 1] ?? "").trim() });
        }
      }
    }
  }
  return findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/**
 * The text with comments, string literals, template text and regular expression literals
 * replaced by spaces (newlines kept, so line numbers hold). Template `${…}` code is kept.
 */
export function blankNonCode(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n") out[i] = " ";
  };
  /** Template nesting: each entry is the brace depth at which a `${` opened. */
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  let lastSignificant = "";
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      lastSignificant = c;
      continue;
    }
    if (c === "`" || (c === "}" && templates.at(-1) === depth)) {
      if (c === "}") templates.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== "`" && !(text[j] === "$" && text[j + 1] === "{"))
        j += text[j] === "\\" ? 2 : 1;
      blank(i + 1, j);
      if (text[j] === "$") {
        templates.push(depth);
        i = j + 2;
      } else i = j + 1;
      lastSignificant = "`";
      continue;
    }
    if (c === "/" && (lastSignificant === "" || "(,=:[!&|?{};+-*%<>~^".includes(lastSignificant))) {
      // A regular expression literal where an operand is expected.
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n" && (inClass || text[j] !== "/")) {
        if (text[j] === "\\") j++;
        else if (text[j] === "[") inClass = true;
        else if (text[j] === "]") inClass = false;
        j++;
      }
      blank(i + 1, j);
      i = j + 1;
      lastSignificant = "/";
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") depth--;
    if (!/\s/.test(c)) lastSignificant = /[\w$]/.test(c) ? "a" : c;
    i++;
  }
  return out.join("");
}
