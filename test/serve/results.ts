/** Loose readers of results, for assertions on both clients' answers. */

/** The text of a tool result's text blocks, joined. */
export const textOf = (result: unknown): string =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("\n");

/** The text of a resources/read result's first content. */
export const resourceText = (result: { contents: unknown[] }): string =>
  String((result.contents[0] as { text?: unknown } | undefined)?.text);
