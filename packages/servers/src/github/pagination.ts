/** The pages a Link header names (REST API §Using pagination): rel="next", "last"… as page numbers. */
export function linkPages(link: string | undefined): Record<string, number> {
  const pages: Record<string, number> = {};
  for (const part of (link ?? "").split(",")) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part);
    if (!m) continue;
    try {
      const page = Number(new URL(m[1] as string).searchParams.get("page"));
      if (Number.isInteger(page) && page > 0) pages[m[2] as string] = page;
    } catch {
      // Not a URL: GitHub always sends absolute ones; ignore anything else.
    }
  }
  return pages;
}

/**
 * Where this page sits, in words: "page 2 of 5; for more, call again with page: 3", or
 * that this is all. GitHub's Link header says whether more exists; it is not guessed.
 */
export function pageNote(page: number, perPage: number, shown: number, link: string | undefined): string {
  const pages = linkPages(link);
  const of = pages.last ? ` of ${pages.last}` : pages.next ? "" : ` of ${page}`;
  const more = pages.next ? `; for more, call again with page: ${pages.next}` : "; no more pages";
  return `[page ${page}${of}, ${shown} item${shown === 1 ? "" : "s"} (up to ${perPage} per page)${more}]`;
}
