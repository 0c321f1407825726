import { createHash } from "node:crypto";

/** Words that make an argument's key a secret's wherever they appear in it (`githubToken`, `X-Api-Key`). */
export const SECRET_WORDS = [
  "password",
  "passwd",
  "secret",
  "token",
  "apikey",
  "authorization",
  "cookie",
  "credential",
  "privatekey",
  "accesskey",
  "sessionid",
] as const;

export const REDACTED = "[redacted]";

/** How keys are compared: `API-Key`, `api_key` and `apiKey` are one. */
export const normalKey = (key: string) => key.toLowerCase().replace(/[-_\s]/g, "");

/** Nesting and size past which arguments are summarized, not copied: an audit line stays a line. */
const MAX_DEPTH = 8;
const MAX_STRING = 1024;
const MAX_ITEMS = 100;

export interface Redaction {
  /** Keys redacted as written (normalKey), beside the secret words. */
  keys: readonly string[];
  /** Values never written, wherever they appear (the upstreams' configured credentials). */
  secrets: readonly string[];
}

/**
 * Arguments as the audit log keeps them: the value of every key that names a secret (or
 * that `keys` lists) replaced by "[redacted]", each known secret value replaced wherever
 * it occurs, long strings and deep or long structures cut.
 */
export function redactArguments(value: unknown, redaction: Redaction): unknown {
  const keys = new Set(redaction.keys);
  const secrets = redaction.secrets.filter((s) => s.length >= 4);
  const secretKey = (key: string) => {
    const k = normalKey(key);
    return keys.has(k) || SECRET_WORDS.some((word) => k.includes(word));
  };
  const scrub = (text: string) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out.length > MAX_STRING ? `${out.slice(0, MAX_STRING)}… (${out.length} characters)` : out;
  };
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return scrub(v);
    if (typeof v !== "object" || v === null) return v;
    if (depth >= MAX_DEPTH) return "[nested too deep]";
    if (Array.isArray(v)) {
      const items = v.slice(0, MAX_ITEMS).map((item) => walk(item, depth + 1));
      return v.length > MAX_ITEMS ? [...items, `… (${v.length} items)`] : items;
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v as Record<string, unknown>).slice(0, MAX_ITEMS))
      Object.defineProperty(out, scrub(key), {
        value: secretKey(key) ? REDACTED : walk(item, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return walk(value, 0);
}

/**
 * A SHA-256 digest of the arguments, keys sorted, so that two calls with the same
 * arguments have the same digest and nothing of them can be read back (short values can
 * be guessed: a digest proves which of a few known values was sent, no more).
 */
export function argumentsDigest(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonical(value)).digest("hex")}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}
