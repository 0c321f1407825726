/**
 * RFC 6570 URI Templates (levels 1–4): expansion, and matching a URI back to variables
 * for resources/read on a template (server/resources §Resource Templates).
 */

import { compile, type Program, run } from "./uri-template-match.js";

export type TemplateValue = string | string[];

/**
 * The longest URI matched against a template (UTF-16 code units): far beyond any real one
 * (HTTP servers take 8 KiB), so that a client's 4 MiB URI costs no more than a real one.
 */
export const MAX_MATCHED_URI = 64 * 1024;
export type TemplateVariables = Record<string, TemplateValue>;

// The variables of a template, read from its text at compile time (RFC 6570 §2.2–2.4), so
// a misspelt name does not compile. Query-like expressions ({?q}, {&p}, {;m}) may be
// absent from a URI; an exploded one ({/path*}) is a list.
type Expressions<T extends string> = T extends `${string}{${infer E}}${infer Rest}` ? E | Expressions<Rest> : never;
type SplitSpecs<S extends string> = S extends `${infer Head},${infer Tail}` ? Head | SplitSpecs<Tail> : S;
type OptionalSpecs<E> = E extends `${"?" | "&" | ";"}${infer List}` ? SplitSpecs<List> : never;
type RequiredSpecs<E> = E extends `${"?" | "&" | ";"}${string}`
  ? never
  : SplitSpecs<E extends `${"+" | "#" | "." | "/"}${infer List}` ? List : E & string>;
type NameOf<Spec> = Spec extends `${infer Name}*` ? Name : Spec extends `${infer Name}:${string}` ? Name : Spec;
type ValueOf<Spec> = Spec extends `${string}*` ? string[] : TemplateValue;

/** The names of the variables in template `T` (any string when `T` is not a literal). */
export type TemplateVariableName<T extends string> = string extends T
  ? string
  : NameOf<SplitSpecs<StripOperator<Expressions<T>>>> & string;
type StripOperator<E> = E extends `${"+" | "#" | "." | "/" | "?" | "&" | ";"}${infer List}` ? List : E & string;

/** The variables a URI matched against template `T` yields. */
export type TemplateVariablesOf<T extends string> = string extends T
  ? TemplateVariables
  : Flat<
      { [Spec in RequiredSpecs<Expressions<T>> as NameOf<Spec>]: ValueOf<Spec> } & {
        [Spec in OptionalSpecs<Expressions<T>> as NameOf<Spec>]?: ValueOf<Spec>;
      }
    >;
type Flat<O> = { [K in keyof O]: O[K] };

interface VarSpec {
  name: string;
  explode: boolean;
  prefix: number | undefined;
}

interface Expression {
  operator: string;
  vars: VarSpec[];
}

type Part = string | Expression;

// RFC 6570 §3.2.1, table in Appendix A.
const OPERATORS: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  "": { first: "", sep: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", sep: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", sep: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", sep: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", sep: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", sep: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, ifEmpty: "=", reserved: false },
};

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf("{", at);
    if (open === -1) {
      parts.push(template.slice(at));
      break;
    }
    if (open > at) parts.push(template.slice(at, open));
    const close = template.indexOf("}", open);
    if (close === -1) throw new TypeError(`Invalid URI template "${template}": unclosed "{"`);
    let body = template.slice(open + 1, close);
    let operator = "";
    if (body && "+#./;?&".includes(body[0] as string)) {
      operator = body[0] as string;
      body = body.slice(1);
    }
    const vars = body.split(",").map((spec) => {
      const m = /^([^:*]+)(?::(\d{1,4})|(\*))?$/.exec(spec);
      if (!m || !VARNAME.test(m[1] as string))
        throw new TypeError(`Invalid URI template "${template}": bad variable "${spec}"`);
      return { name: m[1] as string, prefix: m[2] ? Number(m[2]) : undefined, explode: m[3] === "*" };
    });
    parts.push({ operator, vars });
    at = close + 1;
  }
  return parts;
}

const encodeUnreserved = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
// Reserved expansion keeps reserved characters and existing pct-encodings.
const encodeReserved = (s: string) =>
  s.replace(/%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/g, (c) =>
    c.length === 3 && c[0] === "%" ? c : encodeURIComponent(c),
  );

export class UriTemplate {
  readonly template: string;
  private readonly parts: Part[];
  private matcher: Program | undefined;

  constructor(template: string) {
    this.template = template;
    this.parts = parse(template);
  }

  /** The variable names in order of appearance. */
  get variableNames(): string[] {
    return this.parts.flatMap((p) => (typeof p === "string" ? [] : p.vars.map((v) => v.name)));
  }

  expand(variables: TemplateVariables): string {
    let out = "";
    for (const part of this.parts) {
      if (typeof part === "string") {
        out += encodeReserved(part);
        continue;
      }
      const op = OPERATORS[part.operator] ?? (OPERATORS[""] as (typeof OPERATORS)[string]);
      const encode = op.reserved ? encodeReserved : encodeUnreserved;
      const pieces: string[] = [];
      for (const spec of part.vars) {
        const value = variables[spec.name];
        if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
        if (typeof value === "string") {
          const v = encode(spec.prefix === undefined ? value : [...value].slice(0, spec.prefix).join(""));
          pieces.push(op.named ? (v === "" ? spec.name + op.ifEmpty : `${spec.name}=${v}`) : v);
        } else if (spec.explode) {
          for (const item of value) pieces.push(op.named ? `${spec.name}=${encode(item)}` : encode(item));
        } else {
          const joined = value.map(encode).join(",");
          pieces.push(op.named ? `${spec.name}=${joined}` : joined);
        }
      }
      if (pieces.length > 0) out += op.first + pieces.join(op.sep);
    }
    return out;
  }

  /**
   * The variables that expand to `uri`, or undefined when it does not match: in time linear
   * in its length, and never for a URI longer than MAX_MATCHED_URI.
   */
  match(uri: string): TemplateVariables | undefined {
    if (uri.length > MAX_MATCHED_URI) return undefined;
    this.matcher ??= compile(
      this.parts.map((part, i) =>
        typeof part === "string" ? { literal: part } : { operator: part.operator, last: i === this.parts.length - 1 },
      ),
    );
    const slots = run(this.matcher, uri);
    if (!slots) return undefined;
    const result: TemplateVariables = {};
    let group = 0;
    for (const part of this.parts) {
      if (typeof part === "string") continue;
      const raw = uri.slice(slots[2 * group], slots[2 * group + 1]);
      group++;
      if (!this.readExpression(part, raw, result)) return undefined;
    }
    return result;
  }

  private readExpression(part: Expression, raw: string, out: TemplateVariables): boolean {
    const op = OPERATORS[part.operator] ?? (OPERATORS[""] as (typeof OPERATORS)[string]);
    const body = op.first && raw.startsWith(op.first) ? raw.slice(op.first.length) : raw;
    if (op.named) {
      for (const pair of body === "" ? [] : body.split(op.sep)) {
        const eq = pair.indexOf("=");
        const name = eq === -1 ? pair : pair.slice(0, eq);
        const value = eq === -1 ? "" : decode(pair.slice(eq + 1));
        const spec = part.vars.find((v) => v.name === name);
        if (!spec) continue; // Extra query parameters do not break a match.
        const prev = out[name];
        out[name] = !spec.explode ? value : Array.isArray(prev) ? [...prev, value] : [value];
      }
      return true;
    }
    if (body === "") return true; // An optional expression that expanded to nothing.
    if (part.vars.length === 1) {
      const spec = part.vars[0] as VarSpec;
      // Reserved expansion keeps commas literal; otherwise a comma or separator means a list.
      if (op.reserved && !spec.explode) out[spec.name] = decode(body);
      else {
        const values = body.split(spec.explode ? op.sep : ",").map(decode);
        out[spec.name] = spec.explode || values.length > 1 ? values : (values[0] as string);
      }
      return true;
    }
    const values = body.split(op.sep === "," || op.reserved ? "," : op.sep);
    if (values.length > part.vars.length) return false;
    part.vars.forEach((spec, i) => {
      const v = values[i];
      if (v !== undefined) out[spec.name] = decode(v);
    });
    return true;
  }
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
