/**
 * JSON with comments and trailing commas, as VS Code's and Cursor's configuration files
 * allow: comments and the commas before a closing bracket are blanked out (strings are
 * left alone), then JSON.parse reads the rest, so the positions in its errors still point
 * at the file as written.
 */
export function parseJsonc(text: string): unknown {
  return JSON.parse(blankTrailingCommas(blankComments(text)));
}

/** Whether the text holds a comment (rewriting such a file as JSON would drop it). */
export function hasComments(text: string): boolean {
  return blankComments(text) !== text;
}

function blankComments(text: string): string {
  return outsideStrings(text, (i) => {
    if (text[i] !== "/" || (text[i + 1] !== "/" && text[i + 1] !== "*")) return [text[i] as string, i + 1];
    const block = text[i + 1] === "*";
    const found = block ? text.indexOf("*/", i + 2) : text.indexOf("\n", i);
    const stop = found === -1 ? text.length : block ? found + 2 : found;
    return [text.slice(i, stop).replace(/[^\n]/g, " "), stop];
  });
}

const CLOSING = /\s*[}\]]/y;

function blankTrailingCommas(text: string): string {
  return outsideStrings(text, (i) => {
    CLOSING.lastIndex = i + 1;
    return [text[i] === "," && CLOSING.test(text) ? " " : (text[i] as string), i + 1];
  });
}

/**
 * Rewrites the text outside its strings, which are copied as they are: `rewrite(i)` gives
 * what stands for the text at `i` and the index to go on from.
 */
function outsideStrings(text: string, rewrite: (i: number) => [string, number]): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const [piece, next] = text[i] === '"' ? [text.slice(i, stringEnd(text, i)), stringEnd(text, i)] : rewrite(i);
    out += piece;
    i = next;
  }
  return out;
}

/** The index just past the string that starts at `start` (a double quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return text.length;
}
