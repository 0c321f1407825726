import { freshLinksOnEnter } from "../../inspector/fresh-links.js";

/**
 * `mcpkit dev --inspect`: the web inspector (mcpkit inspect) beside the server, connected
 * to its URL; loaded only with --inspect. Its one-time URL is printed on stdout, alone on
 * its line, as mcpkit inspect prints it, and Enter prints a fresh one. Returns how to close it.
 */
export async function openInspector(url: string): Promise<() => Promise<void>> {
  const { startInspector } = await import("../../inspector/index.js");
  const inspector = await startInspector({ target: { kind: "http", url, headers: {} } });
  process.stderr.write(
    "mcpkit dev: the inspector (open it once; the token is single-use; Enter prints a fresh link):\n",
  );
  process.stdout.write(`${inspector.url}\n`);
  const stopReading = freshLinksOnEnter(() => inspector.freshUrl());
  return async () => {
    stopReading();
    await inspector.close();
  };
}
