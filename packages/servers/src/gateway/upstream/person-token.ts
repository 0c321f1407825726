import type { AuthInfo } from "mcpkit/auth";
import { ErrorCode, McpError } from "mcpkit/jsonrpc";
import type { PersonToken } from "../config/types.js";

/**
 * The signed-in person's own token at the identity provider `token.provider` names, from
 * their verified gateway token (mcpkit's authorization server keeps it, sealed; it never
 * reaches the MCP client). The client's own token is never used: it was issued for the
 * gateway, and an upstream given it could act as the person anywhere that token is taken.
 */
export async function personToken(auth: unknown, server: string, token: PersonToken): Promise<string> {
  const refused = tokenRefusal(auth, server, token);
  if (refused) throw refused;
  return ((auth as AuthInfo).upstream as NonNullable<AuthInfo["upstream"]>).token();
}

/** Why the caller has no token for this upstream (signed in elsewhere, or not at all), or undefined. */
export function tokenRefusal(auth: unknown, server: string, token: PersonToken): McpError | undefined {
  const upstream = (auth as AuthInfo | undefined)?.upstream;
  if (!upstream || typeof upstream.token !== "function")
    return new McpError(
      ErrorCode.InvalidRequest,
      `The "${server}" server acts with each person's own ${token.provider} sign-in: sign in to this gateway with ${token.provider}`,
    );
  // A person signed in elsewhere has no token this upstream takes: theirs is never sent to it.
  if (upstream.provider !== token.provider)
    return new McpError(
      ErrorCode.InvalidRequest,
      `The "${server}" server acts with each person's own ${token.provider} sign-in, and you signed in with ${upstream.provider}`,
    );
  return undefined;
}

/** The header that carries the person's token to an HTTP upstream. */
export const tokenHeader = (token: PersonToken, value: string): Record<string, string> => ({
  [token.header]: token.scheme ? `${token.scheme} ${value}` : value,
});
