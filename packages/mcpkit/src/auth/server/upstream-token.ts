import type { AuthInfo } from "./types.js";

/**
 * The caller's token at the upstream identity provider, from a handler's `ctx.auth`, when
 * mcpkit's authorization server signed them in there (and, with `provider`, only when it
 * is that provider: a GitHub tool has no use for a Google token). Undefined otherwise.
 */
export async function upstreamToken(auth: unknown, provider?: string): Promise<string | undefined> {
  const upstream = (auth as AuthInfo | undefined)?.upstream;
  if (!upstream || typeof upstream.token !== "function") return undefined;
  if (provider !== undefined && upstream.provider !== provider) return undefined;
  return upstream.token();
}
