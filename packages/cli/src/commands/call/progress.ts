import type { Progress } from "mcpkit/client";
import type { Colors } from "./output.js";

/** A one-line progress bar on a terminal, redrawn in place; prompts clear it first. */
export interface ProgressBar {
  update(progress: Progress): void;
  /** Erases the bar; the next update draws it again. */
  clear(): void;
}

const WIDTH = 24;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const ERASE_LINE = "\r\x1b[2K";

/**
 * basic/utilities/progress: `total` may be absent (then a spinner and the count) and
 * `message` says what is going on. Drawn only on a terminal: piped stderr stays clean.
 */
export function progressBar(stream: NodeJS.WriteStream, c: Colors): ProgressBar | undefined {
  if (!stream.isTTY) return undefined;
  let drawn = false;
  let ticks = 0;
  return {
    update({ progress, total, message }) {
      let bar: string;
      let plain: number;
      if (total !== undefined && total > 0) {
        const ratio = Math.min(1, Math.max(0, progress / total));
        const filled = Math.round(ratio * WIDTH);
        const percent = `${Math.round(ratio * 100)}%`.padStart(4);
        bar = `${c.cyan("█".repeat(filled))}${c.dim("░".repeat(WIDTH - filled))} ${percent}`;
        plain = WIDTH + 1 + percent.length;
      } else {
        const count = `${SPINNER[ticks++ % SPINNER.length]} ${progress}`;
        bar = c.cyan(count);
        plain = count.length;
      }
      // One line only: a message longer than the terminal is cut, or it would wrap and smear.
      const room = (stream.columns || 80) - plain - 2;
      const text = message && room > 3 ? ` ${message.length > room ? `${message.slice(0, room - 1)}…` : message}` : "";
      stream.write(`${ERASE_LINE}${bar}${text}`);
      drawn = true;
    },
    clear() {
      if (drawn) stream.write(ERASE_LINE);
      drawn = false;
    },
  };
}
