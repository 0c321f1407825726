/**
 * Whether SQL text holds no statement: only blanks, comments and semicolons, as SQLite's
 * tokenizer reads them (an unterminated block comment runs to the end). What follows the
 * first statement must be this, or the SQL holds a second statement: node:sqlite compiles
 * the first and drops the rest without a word, so the rest is checked here.
 */
export function isBlankSql(text: string): boolean {
  let i = 0;
  for (;;) {
    i = skipBlanks(text, i);
    if (text[i] !== ";") return i >= text.length;
    i++;
  }
}

/**
 * The statement an EXPLAIN or EXPLAIN QUERY PLAN statement explains (the text after those
 * keywords, and the blanks and comments before them), or undefined for any other statement.
 */
export function explainedStatement(sql: string): string | undefined {
  let rest = sql;
  const keyword = (word: string): boolean => {
    const start = skipBlanks(rest, 0);
    const candidate = rest.slice(start, start + word.length);
    const after = rest[start + word.length] ?? "";
    if (candidate.toUpperCase() !== word || /[\w$\u0080-\uffff]/.test(after)) return false;
    rest = rest.slice(start + word.length);
    return true;
  };
  if (!keyword("EXPLAIN")) return undefined;
  const plain = rest;
  if (!(keyword("QUERY") && keyword("PLAN"))) rest = plain;
  return rest;
}

/** Where the text after the blanks and comments (not semicolons) from `i` on starts. */
function skipBlanks(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r") i++;
    else if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else return i;
  }
}
