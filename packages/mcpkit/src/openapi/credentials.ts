import type { Context } from "../server/handler-context.js";
import type { OpenApiDocument } from "./document.js";

/**
 * What the server sends the API to say who it is. Never the MCP client's own token: that
 * was issued to this server, for this server (basic/authorization §Token Passthrough).
 */
export interface ApiCredentials {
  /** `Authorization: Bearer <token>`. */
  bearer?: string;
  /** `Authorization: Basic …`. */
  basic?: { username: string; password: string };
  /**
   * An API key. `name` and `in` default to the document's first `apiKey` security scheme
   * (components.securitySchemes).
   */
  apiKey?: { value: string; name?: string; in?: "header" | "query" | "cookie" };
  /** Further headers (they replace headers of the same name from arguments and options). */
  headers?: Record<string, string>;
}

/**
 * Fixed credentials, or a function of the request's context that returns them per call:
 * the seam for a per-person upstream token (one the authorization server obtained for the
 * person behind `ctx.auth`). Undefined: the request goes without.
 */
export type CredentialsOption =
  | ApiCredentials
  | ((ctx: Context) => ApiCredentials | undefined | Promise<ApiCredentials | undefined>);

/** Where an API key goes, as the request builder needs it. */
export interface KeyPlacement {
  name: string;
  in: "header" | "query" | "cookie";
}

/** The document's first `apiKey` scheme, the default placement of `apiKey` credentials. */
export function documentKeyPlacement(document: OpenApiDocument): KeyPlacement | undefined {
  const schemes = document.components?.securitySchemes ?? {};
  for (const scheme of Object.values(schemes)) {
    const s = scheme as { type?: string; name?: string; in?: string };
    if (
      s?.type === "apiKey" &&
      typeof s.name === "string" &&
      (s.in === "header" || s.in === "query" || s.in === "cookie")
    )
      return { name: s.name, in: s.in };
  }
  return undefined;
}

/** The placement of an API key: its own, else the document's; an error when neither says. */
export function keyPlacement(
  key: NonNullable<ApiCredentials["apiKey"]>,
  fallback: KeyPlacement | undefined,
): KeyPlacement {
  const name = key.name ?? fallback?.name;
  const where = key.in ?? fallback?.in ?? "header";
  if (!name)
    throw new Error("apiKey credentials need a name: the document declares no apiKey security scheme to take it from");
  return { name, in: where };
}
