import { isObject } from "../json/sorted.js";

/** What a credential is replaced with in a recording. */
export const REDACTED = "[redacted]";

/**
 * Keys whose values are credentials wherever they appear in a message (`_meta`, a tool's
 * arguments, a result): tokens, secrets, passwords, API keys, cookies, authorization.
 * `progressToken` names a request's progress and `maxTokens` counts words: neither is one.
 */
const SECRET_KEY =
  /(token|secret|password|passwd|passphrase|api[-_]?key|authorization|cookie|credentials?|private[-_]?key)$/i;
const NOT_SECRET = new Set(["progressToken"]);

/** Credentials recognisable by their shape inside any text. */
const SECRET_TEXT: [RegExp, string][] = [
  [/\b(Bearer|Basic|DPoP)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  // A JSON Web Token: three base64url parts, the first a JSON header ("eyJ").
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g, REDACTED],
];

/** Configured secrets shorter than this are not looked for: they would match ordinary text. */
export const MIN_SECRET_LENGTH = 4;

export interface RedactOptions {
  /** Values to remove wherever they appear (the variables and headers given for the server). */
  secrets?: readonly string[];
}

/**
 * A copy of `message` with credentials left out (docs/testing.md, "What a recording
 * leaves out"): the value of every key that names a credential, every configured secret
 * inside any text, and bearer tokens and JSON Web Tokens inside any text.
 */
export function redact(message: unknown, options: RedactOptions = {}): unknown {
  const secrets = (options.secrets ?? [])
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  const text = (value: string) => {
    let out = value;
    for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
    return out;
  };
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return text(value);
    if (depth > 64) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    if (!isObject(value)) return value;
    // fromEntries makes own properties: a "__proto__" key stays a key.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        SECRET_KEY.test(key) && !NOT_SECRET.has(key) && item !== null && item !== "" ? REDACTED : walk(item, depth + 1),
      ]),
    );
  };
  return walk(message, 0);
}
