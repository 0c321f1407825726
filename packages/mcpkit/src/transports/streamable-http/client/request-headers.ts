import type { JsonRpcMessage } from "../../../jsonrpc/types.js";
import { encodeHeaderValue } from "../../../protocol/mcp-headers.js";
import { META } from "../../../protocol/meta.js";
import { targetOf } from "../../../protocol/methods.js";

/**
 * transports §Request Metadata (2026-07-28): the HTTP client mirrors body fields into
 * headers so intermediaries can route without parsing JSON. It reads only `method`,
 * `params.name`/`params.uri` and the `_meta` protocol version: no MCP semantics.
 */

/** The revision a modern request names in its `_meta`, if it is one. */
export function modernVersion(message: JsonRpcMessage | JsonRpcMessage[]): string | undefined {
  if (Array.isArray(message) || !("method" in message)) return undefined;
  const meta = message.params?._meta as Record<string, unknown> | undefined;
  const version = meta?.[META.protocolVersion];
  return typeof version === "string" ? version : undefined;
}

/**
 * The metadata headers for one POST: `Mcp-Method`, `Mcp-Name` where the method has one,
 * `MCP-Protocol-Version` equal to the body's `_meta` version when the request names one
 * (the server rejects a mismatch with -32020), and the caller's extra headers
 * (`Mcp-Param-*`), each value encoded for the wire.
 */
export function requestHeaders(
  message: JsonRpcMessage | JsonRpcMessage[],
  extra: Record<string, string> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra ?? {})) headers[name.toLowerCase()] = encodeHeaderValue(value);
  if (Array.isArray(message) || !("method" in message)) return headers;
  headers["mcp-method"] = message.method;
  const name = targetOf(message.method, message.params);
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  const version = modernVersion(message);
  if (version !== undefined) headers["mcp-protocol-version"] = version;
  return headers;
}
