/** Small HTTP pieces of the authorization server's endpoints: bodies read with a limit, JSON and OAuth error answers. */

/** The most a form or JSON body may hold (registration, token, revocation, consent). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Endpoints a browser-based client calls directly: any origin may read them (no cookies involved). */
const OPEN: Record<string, string> = { "access-control-allow-origin": "*" };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...OPEN, ...headers },
  });
}

/** RFC 6749 §5.1–5.2: token answers are never cached. */
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/** An OAuth error answer (RFC 6749 §5.2): `error`, and a description a person can act on. */
export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}) {
  return json(status, { error, error_description: description }, { ...NO_STORE, ...headers });
}

/** The CORS preflight answer for the endpoints clients call from a browser. */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...OPEN,
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": "authorization, content-type, dpop",
      "access-control-max-age": "86400",
    },
  });
}

/** The request body as text, or undefined when it is larger than the limit. */
export async function readBody(request: Request, limit = MAX_BODY_BYTES): Promise<string | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return undefined;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A form body (application/x-www-form-urlencoded), or why not. RFC 6749 §3.1: parameters
 * sent without a value are treated as omitted; a parameter must not be repeated.
 */
export async function readForm(request: Request): Promise<URLSearchParams | string> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded"))
    return "The body must be application/x-www-form-urlencoded";
  const body = await readBody(request);
  if (body === undefined) return `The body is larger than ${MAX_BODY_BYTES} bytes`;
  const form = new URLSearchParams(body);
  const repeated = [...new Set(form.keys())].find((name) => form.getAll(name).length > 1);
  if (repeated) return `The parameter ${repeated} is repeated`;
  for (const [name, value] of [...form]) if (value === "") form.delete(name);
  return form;
}

/** One parameter of a query (RFC 6749 §3.1: at most once; empty is absent). */
export function single(params: URLSearchParams, name: string): string | undefined | null {
  const values = params.getAll(name);
  if (values.length > 1) return null;
  return values[0] || undefined;
}

/** A cookie's value from the Cookie header. */
export function cookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A redirect (302) to `url`, with extra headers. */
export function redirect(url: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 302, headers: { location: url, "cache-control": "no-store", ...headers } });
}
