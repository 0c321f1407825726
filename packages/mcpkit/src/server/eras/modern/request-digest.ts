import { createHash } from "node:crypto";

/** JSON with sorted keys, so equal values digest equally whatever order a client sends. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * What identifies a request across its rounds (mrtr §Security: "the method name and a
 * digest of its salient parameters"): everything but `_meta`, `inputResponses` and
 * `requestState`.
 */
export function requestDigest(method: string, params: Record<string, unknown> | undefined): string {
  const { _meta, inputResponses, requestState, ...salient } = params ?? {};
  return `${method}:${createHash("sha256").update(canonical(salient)).digest("base64url")}`;
}
