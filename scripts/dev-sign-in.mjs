// The person at the browser, for `mcpkit serve --authorization-server dev`: follows an
// authorization URL through redirects (keeping cookies), allows the request on the consent
// page, and delivers the final redirect to the client's callback. Used by conformance.mjs
// to complete the authorization-code-grant scenario, which waits for a person.

/** Follows `url` until a redirect leaves for `callbackPrefix`, approving consent; fetches that callback. */
export async function devSignIn(url, callbackPrefix) {
  const cookies = new Map();
  const request = async (target, init = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return response;
  };
  let current = url;
  for (let hop = 0; hop < 20; hop++) {
    if (current.startsWith(callbackPrefix)) {
      const delivered = await fetch(current);
      await delivered.body?.cancel();
      return current;
    }
    let response = await request(current);
    if (response.status >= 300 && response.status < 400) {
      current = new URL(response.headers.get("location"), current).href;
      continue;
    }
    const page = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, "&");
    const decision = /name="decision" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !decision)
      throw new Error(`The sign-in stopped at ${current} (HTTP ${response.status}): ${page.slice(0, 300)}`);
    response = await request(action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(current).origin },
      body: new URLSearchParams({ decision, answer: "approve" }),
    });
    if (response.status < 300 || response.status >= 400)
      throw new Error(
        `The consent was not accepted (HTTP ${response.status}): ${(await response.text()).slice(0, 300)}`,
      );
    current = new URL(response.headers.get("location"), action).href;
  }
  throw new Error(`Too many redirects from ${url}`);
}
