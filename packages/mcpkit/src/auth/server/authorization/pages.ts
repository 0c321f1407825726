/** The pages a person sees at the authorization server: the consent page and the error page. */

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/** No scripts, no framing (clickjacking), nothing loaded from elsewhere, never cached. */
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;max-width:30rem;width:100%;margin:1rem;padding:2rem;border-radius:12px;box-shadow:0 2px 12px #0002}
h1{font-size:1.3rem;margin:0 0 1rem}
dl{margin:1rem 0;display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
dt{color:#5b6475}dd{margin:0;word-break:break-all}
.actions{display:flex;gap:.8rem;margin-top:1.5rem}
button{flex:1;font:inherit;padding:.6rem;border-radius:8px;border:1px solid #c5cad3;background:#fff;cursor:pointer}
button.approve{background:#1f6feb;border-color:#1f6feb;color:#fff}
.note{color:#5b6475;font-size:.9rem}`;

function page(title: string, body: string, status = 200, headers: Record<string, string> = {}): Response {
  const document = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${html(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(document, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

export interface ConsentView {
  /** The server's name ("mcpkit"). */
  server: string;
  /** The client's own name, as it registered or published it: a claim, not a fact. */
  clientName: string | undefined;
  /** What the client is known by: its metadata document's host, or its registered id. */
  clientIdentity: string;
  redirectHost: string;
  resource: string;
  scopes: string[];
  /** Who signed in, and where. */
  person: string;
  provider: string;
  /** The one-time id of this decision, posted back. */
  decision: string;
  action: string;
}

/** Asks the person whether the client may act for them at the resource. */
export function consentPage(view: ConsentView): Response {
  const client = view.clientName
    ? `${html(view.clientName)} (${html(view.clientIdentity)})`
    : html(view.clientIdentity);
  return page(
    `Allow access? – ${view.server}`,
    `<h1>Allow ${html(view.clientName ?? view.clientIdentity)} to use ${html(view.server)} as you?</h1>
<dl>
<dt>Signed in</dt><dd>${html(view.person)} via ${html(view.provider)}</dd>
<dt>Application</dt><dd>${client}</dd>
<dt>Returns to</dt><dd>${html(view.redirectHost)}</dd>
<dt>Server</dt><dd>${html(view.resource)}</dd>
<dt>Access</dt><dd>${view.scopes.length > 0 ? view.scopes.map(html).join(", ") : "the server's tools and data, as you"}</dd>
</dl>
<p class="note">Only allow an application you started yourself, just now. Its name is its own claim; where it returns is not.</p>
<form method="post" action="${html(view.action)}">
<input type="hidden" name="decision" value="${html(view.decision)}">
<div class="actions"><button type="submit" name="answer" value="deny">Deny</button>
<button type="submit" name="answer" value="approve" class="approve">Allow</button></div>
</form>`,
  );
}

/** Something went wrong, said to the person: nothing goes back to a client before the person decided (RFC 9700 §4.11.2). */
export function errorPage(
  title: string,
  message: string,
  status = 400,
  headers: Record<string, string> = {},
): Response {
  return page(title, `<h1>${html(title)}</h1><p>${html(message)}</p>`, status, headers);
}
