import { randomBytes } from "node:crypto";

/** `_meta.ui.csp` of an MCP Apps view (ext-apps 2026-01-26 §UI Resource Format). */
export interface ViewCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

/** A view the page asked to render: its HTML, served once per frame under its own CSP. */
interface View {
  html: string;
  csp: string;
}

/** Views kept at once; the oldest goes first (each open frame needs its own only while it loads). */
const MAX_VIEWS = 32;

/**
 * An origin a view may name: a scheme, a host (a leading `*.` allowed) and an optional
 * port, nothing else. Anything broader (`*`, `data:`, a keyword, a `;`) would loosen the
 * policy, which a host must never do ("No Loosening"), so it is dropped.
 */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

function origins(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && ORIGIN.test(v)) : [];
}

/**
 * The Content-Security-Policy of a view: the extension's restrictive default, opened only
 * to the origins the view declared. `sandbox` gives the document an opaque origin, so it
 * can reach neither the inspector's cookie nor its API, whatever the iframe says.
 */
export function viewCsp(csp: ViewCsp | undefined): string {
  const resource = origins(csp?.resourceDomains).join(" ");
  const connect = origins(csp?.connectDomains).join(" ") || "'none'";
  const frame = origins(csp?.frameDomains).join(" ") || "'none'";
  const base = origins(csp?.baseUriDomains).join(" ") || "'self'";
  const withResources = (list: string) => (resource ? `${list} ${resource}` : list);
  return [
    "default-src 'none'",
    `script-src ${withResources("'self' 'unsafe-inline'")}`,
    `style-src ${withResources("'self' 'unsafe-inline'")}`,
    `img-src ${withResources("'self' data: blob:")}`,
    `font-src ${withResources("'self' data:")}`,
    `media-src ${withResources("'self' data: blob:")}`,
    `connect-src ${connect}`,
    `frame-src ${frame}`,
    `base-uri ${base}`,
    "object-src 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
    "sandbox allow-scripts allow-forms",
  ].join("; ");
}

/** The views the page is rendering, each under an unguessable id. */
export class AppViews {
  private readonly views = new Map<string, View>();

  add(html: string, csp: ViewCsp | undefined): { id: string; csp: string } {
    const id = randomBytes(16).toString("base64url");
    const view = { html, csp: viewCsp(csp) };
    this.views.set(id, view);
    if (this.views.size > MAX_VIEWS) this.views.delete(this.views.keys().next().value as string);
    return { id, csp: view.csp };
  }

  get(id: string): View | undefined {
    return this.views.get(id);
  }
}
