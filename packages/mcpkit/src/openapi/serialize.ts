import type { ParamPlan } from "./input.js";

/**
 * Parameter values as OpenAPI serializes them (OAS §4.8.12.4, "Style Examples"): path
 * (simple, label, matrix), query (form, spaceDelimited, pipeDelimited, deepObject),
 * header (simple) and cookie (form), each with `explode`. Path and query output is
 * percent-encoded here; headers and cookies are checked for characters they cannot carry.
 */

type Scalar = string | number | boolean;

const text = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);

/** RFC 3986 unreserved characters stay; allowReserved keeps the reserved ones too (query only). */
function encoder(plan: ParamPlan): (value: string) => string {
  if (plan.allowReserved) return (value) => encodeURI(value).replace(/%5B/g, "[").replace(/%5D/g, "]");
  return (value) =>
    encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function entriesOf(value: unknown): [string, Scalar][] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.entries(value).filter(([, v]) => v !== undefined && v !== null) as [string, Scalar][];
}

/** The value of a path parameter, encoded, to put in place of `{name}`. */
export function pathValue(plan: ParamPlan, value: unknown): string {
  const enc = encoder({ ...plan, allowReserved: false });
  if (plan.mediaType) return enc(JSON.stringify(value));
  const items = Array.isArray(value) ? value.map((v) => enc(text(v))) : undefined;
  const pairs = entriesOf(value)?.map(([k, v]) => [enc(k), enc(text(v))] as const);
  const one = enc(text(value));
  switch (plan.style) {
    case "label": {
      const sep = plan.explode ? "." : ",";
      if (items) return `.${items.join(sep)}`;
      if (pairs) return `.${pairs.map(([k, v]) => (plan.explode ? `${k}=${v}` : `${k},${v}`)).join(sep)}`;
      return `.${one}`;
    }
    case "matrix": {
      const name = enc(plan.name);
      if (items) return plan.explode ? items.map((v) => `;${name}=${v}`).join("") : `;${name}=${items.join(",")}`;
      if (pairs)
        return plan.explode
          ? pairs.map(([k, v]) => `;${k}=${v}`).join("")
          : `;${name}=${pairs.map(([k, v]) => `${k},${v}`).join(",")}`;
      return `;${name}=${one}`;
    }
    default: {
      if (items) return items.join(",");
      if (pairs) return pairs.map(([k, v]) => (plan.explode ? `${k}=${v}` : `${k},${v}`)).join(",");
      return one;
    }
  }
}

/** The `name=value` pieces one query parameter adds to the query string, encoded. */
export function queryPieces(plan: ParamPlan, value: unknown): string[] {
  const enc = encoder(plan);
  const name = encodeURIComponent(plan.name);
  if (plan.mediaType) return [`${name}=${enc(JSON.stringify(value))}`];
  if (Array.isArray(value)) {
    const items = value.map((v) => enc(text(v)));
    if (plan.style === "spaceDelimited") return [`${name}=${items.join("%20")}`];
    if (plan.style === "pipeDelimited") return [`${name}=${items.join("%7C")}`];
    return plan.explode ? items.map((v) => `${name}=${v}`) : [`${name}=${items.join(",")}`];
  }
  const pairs = entriesOf(value);
  if (pairs) {
    if (plan.style === "deepObject") return pairs.map(([k, v]) => `${name}%5B${enc(k)}%5D=${enc(text(v))}`);
    return plan.explode
      ? pairs.map(([k, v]) => `${enc(k)}=${enc(text(v))}`)
      : [`${name}=${pairs.map(([k, v]) => `${enc(k)},${enc(text(v))}`).join(",")}`];
  }
  return [`${name}=${enc(text(value))}`];
}

/** A header parameter's value (style simple). */
export function headerValue(plan: ParamPlan, value: unknown): string {
  let out: string;
  if (plan.mediaType) out = JSON.stringify(value);
  else if (Array.isArray(value)) out = value.map(text).join(",");
  else {
    const pairs = entriesOf(value);
    out = pairs ? pairs.map(([k, v]) => (plan.explode ? `${k}=${text(v)}` : `${k},${text(v)}`)).join(",") : text(value);
  }
  if (/[\r\n\0]/.test(out)) throw new ArgumentError(`${plan.arg}: a header value cannot contain line breaks`);
  return out;
}

/** The `name=value` pairs one cookie parameter adds to the Cookie header (style form). */
export function cookiePieces(plan: ParamPlan, value: unknown): string[] {
  const enc = (v: string) => encodeURIComponent(v);
  if (plan.mediaType) return [`${plan.name}=${enc(JSON.stringify(value))}`];
  if (Array.isArray(value)) {
    const items = value.map((v) => enc(text(v)));
    return plan.explode ? items.map((v) => `${plan.name}=${v}`) : [`${plan.name}=${items.join(",")}`];
  }
  const pairs = entriesOf(value);
  if (pairs)
    return plan.explode
      ? pairs.map(([k, v]) => `${k}=${enc(text(v))}`)
      : [`${plan.name}=${pairs.map(([k, v]) => `${k},${enc(text(v))}`).join(",")}`];
  return [`${plan.name}=${enc(text(value))}`];
}

/** Arguments that cannot make a request: reported to the model as a tool error. */
export class ArgumentError extends Error {
  override name = "ArgumentError";
}
