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
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      const block = text[i + 1] === "*";
      const found = block ? text.indexOf("*/", i + 2) : text.indexOf("\n", i);
      const stop = found === -1 ? text.length : block ? found + 2 : found;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const CLOSING = /\s*[}\]]/y;

function blankTrailingCommas(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    CLOSING.lastIndex = i + 1;
    out += c === "," && CLOSING.test(text) ? " " : c;
    i++;
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
