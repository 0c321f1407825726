/** Who is calling, as a verified access token says (the `ctx.auth` of handlers). */
export interface AuthInfo {
  /** The raw access token. */
  token: string;
  /** The principal (the token's `sub`). */
  subject?: string;
  /** The OAuth client the token was issued to. */
  clientId?: string;
  /** Granted scopes. */
  scopes: string[];
  /** Expiry, ms since the epoch. */
  expiresAt?: number;
  /** Every claim or introspection field, for what the server needs beyond these. */
  claims: Record<string, unknown>;
}

/** Checks an access token; throws InvalidTokenError when it is not good for this server. */
export type TokenVerifier = (token: string) => Promise<AuthInfo>;

/** The token is missing, malformed, expired, or not meant for this server (HTTP 401). */
export class InvalidTokenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidTokenError";
  }
}

export const scopesOf = (value: unknown): string[] => {
  if (typeof value === "string") return value.split(" ").filter(Boolean);
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === "string");
  return [];
};
