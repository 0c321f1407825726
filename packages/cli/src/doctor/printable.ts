/**
 * Text a server chose (its stderr, its error messages, its tool names) made safe for a
 * terminal: control characters other than newline and tab, ESC among them, are shown
 * escaped, so a server cannot move the cursor, retitle the window or hide lines.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The last `lines` lines of a text, each cut to `width` characters. */
export function tail(text: string, lines = 12, width = 300): string {
  return text
    .trimEnd()
    .split(/\r?\n/)
    .slice(-lines)
    .map((line) => (line.length > width ? `${line.slice(0, width)}…` : line))
    .join("\n");
}
