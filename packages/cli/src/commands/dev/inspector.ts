/**
 * `mcpkit dev --inspect`: the web inspector (mcpkit inspect) beside the server, connected
 * to its URL; loaded only with --inspect. Its one-time URL is printed on stdout, alone on
 * its line, as mcpkit inspect prints it. Returns how to close it.
 */
export async function openInspector(url: string): Promise<() => Promise<void>> {
  const { startInspector } = await import("../../inspector/index.js");
  const inspector = await startInspector({ target: { kind: "http", url, headers: {} } });
  process.stderr.write("mcpkit dev: the inspector (open it once; the token is single-use):\n");
  process.stdout.write(`${inspector.url}\n`);
  return () => inspector.close();
}
