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
  for (const dir of dirs)
    for (const file of sourceFiles(join(root, dir)))
      findings.push(...findInText(readFileSync(file, "utf8"), relative(root, file)));
  return findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** The findings in one source text. */
export function findInText(text: string, file = "<text>"): Finding[] {
  const findings: Finding[] = [];
  const code = blankNonCode(text);
  const lines = text.split("\n");
  for (const [kind, pattern] of PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      if (kind === "void" && handled(statementAt(code, match.index + match[0].length))) continue;
      const line = code.slice(0, match.index).split("\n").length;
      findings.push({ file, line, kind, code: (lines[line - 1] ?? "").trim() });
    }
  }
  return findings;
}

/** The expression a `void` at `from` discards: up to the `;`, `,` or closing bracket that ends it. */
function statementAt(code: string, from: number): string {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i] as string;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) return code.slice(from, i);
      depth--;
    } else if ((c === ";" || c === ",") && depth === 0) return code.slice(from, i);
  }
  return code.slice(from);
}

/**
 * Whether an expression is a promise chain whose last call is `.catch(handler)` with a
 * handler that does something: its failure is reported, so discarding it is fine.
 */
function handled(expression: string): boolean {
  let depth = 0;
  let last: { method: string; args: number } | undefined;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i] as string;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (c === "." && depth === 0) {
      const call = /^\.([\w$]+)\s*\(/.exec(expression.slice(i));
      if (call) last = { method: call[1] as string, args: i + call[0].length };
    }
  }
  if (last?.method !== "catch") return false;
  let end = last.args;
  for (let d = 1; end < expression.length && d > 0; end++) {
    if ("([{".includes(expression[end] as string)) d++;
    else if (")]}".includes(expression[end] as string)) d--;
  }
  if (expression.slice(end).trim() !== "") return false;
  const handler = expression.slice(last.args, end - 1).trim();
  return handler !== "" && !/^\(\s*[\w$]*\s*\)\s*=>\s*(?:\{\s*\}|undefined|void 0)$/.test(handler);
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
