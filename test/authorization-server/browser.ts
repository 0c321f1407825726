/**
 * A person's browser, for tests: keeps cookies per host, follows redirects, and answers
 * the consent page the way a person clicking Allow or Deny would (a form POST from the
 * page's own origin). Stops where the flow leaves for the client's redirect URI.
 */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();
  /** How it sends requests: the network by default, or a handler called in-process. */
  constructor(private readonly send: (url: string, init: RequestInit) => Promise<Response> = fetch) {}
  /** The last page shown (HTML), for assertions. */
  page = "";
  /** Every URL visited, in order. */
  readonly visited: string[] = [];

  /** Forgets every cookie: another browser, as far as servers can tell. */
  forget(): void {
    this.jar.clear();
  }

  cookies(url: string): Map<string, string> {
    const host = new URL(url).host;
    let cookies = this.jar.get(host);
    if (!cookies) {
      cookies = new Map();
      this.jar.set(host, cookies);
    }
    return cookies;
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    this.visited.push(url);
    const cookies = this.cookies(url);
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await this.send(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = (pair as string).indexOf("=");
      const name = (pair as string).slice(0, eq).trim();
      const value = (pair as string).slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [key, v] = a.trim().split("=");
        return (
          (key?.toLowerCase() === "max-age" && Number(v) <= 0) ||
          (key?.toLowerCase() === "expires" && Date.parse(v ?? "") < Date.now())
        );
      });
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  }

  /** Posts the consent page's form with `answer`, as the page's own origin. */
  async answer(pageUrl: string, answer: "approve" | "deny"): Promise<Response> {
    const action = /<form method="post" action="([^"]+)"/.exec(this.page)?.[1]?.replace(/&amp;/g, "&");
    const decision = /name="decision" value="([^"]+)"/.exec(this.page)?.[1];
    if (!action || !decision) throw new Error(`No consent form on the page at ${pageUrl}:\n${this.page}`);
    return this.request(action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(pageUrl).origin },
      body: new URLSearchParams({ decision, answer }),
    });
  }

  /**
   * Follows an authorization URL: redirects, sign-in pages that finish by themselves, the
   * consent page (answered with `answer`, or left open with "stop"), until a redirect to
   * an address starting with `until` (returned, not fetched) or a page it cannot go past.
   */
  async authorize(
    url: string,
    options: { until: string; answer?: "approve" | "deny" | "stop" },
  ): Promise<{ callback?: URL; status: number; at: string }> {
    let current = url;
    for (let hop = 0; hop < 30; hop++) {
      if (current.startsWith(options.until)) return { callback: new URL(current), status: 302, at: current };
      let response = await this.request(current);
      if (response.status >= 300 && response.status < 400) {
        current = new URL(response.headers.get("location") as string, current).href;
        continue;
      }
      this.page = await response.text();
      if (response.status === 200 && this.page.includes('name="decision"')) {
        if ((options.answer ?? "approve") === "stop") return { status: 200, at: current };
        response = await this.answer(current, (options.answer ?? "approve") as "approve" | "deny");
        if (response.status >= 300 && response.status < 400) {
          current = new URL(response.headers.get("location") as string, current).href;
          continue;
        }
        this.page = await response.text();
      }
      return { status: response.status, at: current };
    }
    throw new Error(`Too many redirects from ${url}`);
  }
}
