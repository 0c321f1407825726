import type { CallToolResult } from "../protocol/types/features.js";
import type { ApiCredentials } from "./credentials.js";

/**
 * The configured credentials kept out of everything a call returns to the MCP client: a
 * resource's URI (an API key in the query string), an error's text, an API that echoes the
 * request's headers or its URL in its answer. Each secret is replaced wherever it appears,
 * as it was sent (raw, percent-encoded, or inside a Basic token).
 */

export const REDACTED = "[redacted]";
/** Shorter values cannot be told from ordinary text, and are no secret worth the name. */
const MIN_SECRET = 6;

export type Redact = (text: string) => string;

/** Headers of `options.headers` whose names say they carry a secret (an `-H "Authorization: …"` on the command line). */
const SECRET_HEADER = /auth|cookie|token|key|secret|passw|session|signature/i;

/**
 * A redactor for these credentials, and for the values of fixed headers whose names say
 * they are secret (the identity when there are none).
 */
export function redactor(
  credentials: ApiCredentials | undefined,
  headers: Readonly<Record<string, string>> = {},
): Redact {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers))
    if (SECRET_HEADER.test(name)) values.push(value, value.replace(/^\S+\s+/, "")); // "Bearer t": t too
  if (credentials?.bearer) values.push(credentials.bearer);
  if (credentials?.basic) {
    const { username, password } = credentials.basic;
    values.push(password, Buffer.from(`${username}:${password}`).toString("base64"));
  }
  if (credentials?.apiKey) values.push(credentials.apiKey.value);
  for (const value of Object.values(credentials?.headers ?? {})) values.push(value);
  // As sent: raw, percent-encoded, and as a URL's query writes it (which encodes ' too).
  const secrets = [
    ...new Set(values.flatMap((v) => [v, encodeURIComponent(v), encodeURIComponent(v).replaceAll("'", "%27")])),
  ]
    .filter((v) => v.length >= MIN_SECRET)
    // The longest first, so that one secret inside another leaves nothing of either.
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) =>
    secrets.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(REDACTED) : out), text);
}

/** A URL with every query parameter whose value is a secret removed, and any other trace replaced. */
export function redactUrl(url: string, redact: Redact): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redact(url);
  }
  const kept = parsed.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && redact(pair.slice(pair.indexOf("=") + 1)) === pair.slice(pair.indexOf("=") + 1));
  parsed.search = kept.join("&");
  return redact(parsed.href).split(REDACTED).join("redacted");
}

/** A tool result with the secrets taken out of its text, its structured content and its resource URIs. */
export function redactResult(result: CallToolResult, redact: Redact): CallToolResult {
  const content = result.content.map((block) => {
    if (block.type === "text") return { ...block, text: redact(block.text) };
    if (block.type === "resource")
      return { ...block, resource: { ...block.resource, uri: redactUrl(block.resource.uri, redact) } };
    return block;
  });
  const structured =
    result.structuredContent === undefined ? {} : { structuredContent: deep(result.structuredContent, redact) };
  return { ...result, content, ...structured } as CallToolResult;
}

function deep<T>(value: T, redact: Redact): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => deep(v, redact)) as T;
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), deep(v, redact)])) as T;
  return value;
}
