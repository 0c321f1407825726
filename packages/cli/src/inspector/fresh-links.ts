import { createInterface } from "node:readline";

/**
 * Enter in the terminal prints a fresh link to the inspector (on stdout, alone on its
 * line), for another tab or browser: each link opens it once. Returns how to stop
 * reading the terminal.
 */
export function freshLinksOnEnter(freshUrl: () => string): () => void {
  const lines = createInterface({ input: process.stdin });
  lines.on("line", () => {
    process.stderr.write("A fresh link (the one before, if unused, no longer opens):\n");
    process.stdout.write(`${freshUrl()}\n`);
  });
  return () => lines.close();
}
