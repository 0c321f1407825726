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

/**
 * The last `lines` lines of a text, each cut to `width` characters. A stack trace keeps its
 * first frame and counts the others: a crash's last lines are otherwise Node's frames, and
 * the line that says what was thrown falls out of them.
 */
export function tail(text: string, lines = 12, width = 300): string {
  return withFramesCounted(text.trimEnd().split(/\r?\n/))
    .slice(-lines)
    .map((line) => (line.length > width ? `${line.slice(0, width)}…` : line))
    .join("\n");
}

const FRAME = /^\s+at /;

function withFramesCounted(all: readonly string[]): string[] {
  const kept: string[] = [];
  let more = 0;
  const count = () => {
    if (more > 0) kept.push(`    … ${more} more stack ${more === 1 ? "frame" : "frames"}`);
    more = 0;
  };
  all.forEach((line, i) => {
    if (FRAME.test(line) && i > 0 && FRAME.test(all[i - 1] as string)) more += 1;
    else {
      count();
      kept.push(line);
    }
  });
  count();
  return kept;
}
