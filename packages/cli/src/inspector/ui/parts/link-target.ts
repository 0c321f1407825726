/** Where the inspector's page is: the parts of its Location a link is compared with. */
export type Here = Pick<Location, "origin" | "port" | "protocol">;

/**
 * Links that come from a server (its instructions, a result's Markdown, its website, a
 * sign-in or URL elicitation, an MCP App's ui/open-link) open outside the inspector: in a
 * new browsing context with no opener and no referrer, and only to http(s) addresses that
 * are not this inspector, however its address is spelled (127.0.0.1, 127.1, localhost,
 * [::1] with its port): a server's link never drives the inspector's own page.
 */
export function externalHref(href: unknown, here: Here = location): string | undefined {
  if (typeof href !== "string") return undefined;
  let url: URL;
  try {
    // No base: a relative link would resolve to the inspector itself.
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.origin === here.origin) return undefined;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const ourPort = here.port || (here.protocol === "https:" ? "443" : "80");
  if (port === ourPort && isThisMachine(url.hostname)) return undefined;
  return url.href;
}

/** A name or address of this machine, as the URL parser writes it (127.1 is already 127.0.0.1 there). */
function isThisMachine(host: string): boolean {
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "0.0.0.0" ||
    host === "[::1]" ||
    host === "[::]" ||
    /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.[\d.]+)\]$/.test(host)
  );
}
