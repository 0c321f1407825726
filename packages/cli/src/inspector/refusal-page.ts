/**
 * What a browser is shown when it opens the inspector without being let in: a used or
 * wrong link, or the bare address in a new tab. A page that says what happened and how to
 * get in, not an API's JSON error. Fixed text only: nothing of the request is echoed.
 */
export function refusalPage(reason: "used-token" | "no-cookie"): string {
  const what =
    reason === "used-token"
      ? "This link was used already (each link opens the inspector once), or it belongs to another run of mcpkit inspect."
      : "This browser has not opened the inspector's link yet, or it belongs to another run of mcpkit inspect.";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<title>mcpkit inspector: open a fresh link</title></head>
<body><main>
<h1>Open a fresh link to the inspector</h1>
<p>${what}</p>
<p>Press Enter in the terminal where <code>mcpkit inspect</code> runs: it prints a fresh link. Open that one.</p>
<p>A page that already uses the inspector goes on working.</p>
</main></body></html>
`;
}

/** Whether a request is a browser opening a page (an HTML navigation), not the page's own scripts or API. */
export const wantsPage = (accept: string | undefined, pathname: string): boolean =>
  pathname === "/" || /\btext\/html\b/.test(accept ?? "");
