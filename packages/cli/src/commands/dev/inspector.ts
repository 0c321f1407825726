/**
 * `mcpkit dev --inspect`: the web inspector beside the server, pointed at its URL. The
 * inspector (mcpkit inspect) is being built beside this command; until it is wired in
 * here, --inspect says so and the server runs on.
 */
export async function openInspector(url: string): Promise<(() => Promise<void>) | undefined> {
  process.stderr.write(
    `mcpkit dev: --inspect needs the web inspector (mcpkit inspect), which this build does not have; ` +
      `connect any client to ${url} meanwhile\n`,
  );
  return undefined;
}
