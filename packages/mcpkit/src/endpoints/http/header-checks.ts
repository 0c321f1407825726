import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { decodeHeaderValue, headerParamValue } from "../../protocol/mcp-headers.js";
import { META } from "../../protocol/meta.js";
import { NAMED_METHODS, targetOf } from "../../protocol/methods.js";
import { isLegacyRevision, LEGACY_REVISIONS, newestFirst } from "../../protocol/versions.js";
import type { ServerDefinition } from "../../server/definition.js";
import type { HttpReply, HttpRequest } from "../../transports/http/exchange.js";
import { jsonRpcErrorReply } from "../../transports/http/responses.js";

const mismatch = (message: string) => new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);

/**
 * transports/streamable-http §Server Validation (2026-07-28): the standard headers must
 * agree with the body, and so must the `Mcp-Param-*` headers of a tool whose schema marks
 * parameters with x-mcp-header.
 */
export function checkModernHeaders(
  request: HttpRequest,
  message: { method: string; params?: JsonObject },
  server: ServerDefinition,
  versionHeader: string | null,
): McpError | undefined {
  const headers = request.headers;
  const version = versionHeader?.trim();
  const bodyVersion = (message.params?._meta as Record<string, unknown> | undefined)?.[META.protocolVersion];
  if (version === undefined) return mismatch("the MCP-Protocol-Version header is required");
  if (version !== bodyVersion) {
    return mismatch(`MCP-Protocol-Version header ${version} does not match _meta version ${String(bodyVersion)}`);
  }
  const method = headers.get("mcp-method")?.trim();
  if (method === undefined) return mismatch("the Mcp-Method header is required");
  if (method !== message.method)
    return mismatch(`Mcp-Method header '${method}' does not match body method '${message.method}'`);
  if (Object.hasOwn(NAMED_METHODS, message.method)) {
    const raw = headers.get("mcp-name");
    if (raw === null) return mismatch("the Mcp-Name header is required for this method");
    const name = decodeHeaderValue(raw);
    if (name === undefined) return mismatch("the Mcp-Name header is not valid Base64");
    const bodyName = targetOf(message.method, message.params);
    if (name !== bodyName) return mismatch(`Mcp-Name header '${name}' does not match body value '${String(bodyName)}'`);
  }
  if (message.method === "tools/call") return checkParamHeaders(request, message.params, server);
  return undefined;
}

function checkParamHeaders(request: HttpRequest, params: JsonObject | undefined, server: ServerDefinition) {
  const tool = server.tools.get(String(params?.name));
  for (const param of tool?.headerParams ?? []) {
    const raw = request.headers.get(`mcp-param-${param.header.toLowerCase()}`);
    const expected = headerParamValue(params?.arguments, param);
    if (raw === null) {
      if (expected !== undefined)
        return mismatch(`the Mcp-Param-${param.header} header is required: the argument is in the body`);
      continue;
    }
    const value = decodeHeaderValue(raw);
    if (value === undefined) return mismatch(`Mcp-Param-${param.header} is not valid Base64`);
    const same =
      param.type === "integer" ? expected !== undefined && Number(value) === Number(expected) : value === expected;
    if (!same)
      return mismatch(`Mcp-Param-${param.header} header '${value}' does not match body value '${String(expected)}'`);
  }
  return undefined;
}

/** transports §Protocol Version Header (2025-11-25): a version the legacy era does not have gets 400. */
export function checkLegacyVersion(header: string | null): HttpReply | undefined {
  const version = header?.trim();
  if (version === undefined || isLegacyRevision(version)) return undefined;
  return unsupportedLegacyVersion(version);
}

/** The 400 for a version the legacy era does not have. */
export function unsupportedLegacyVersion(version: string): HttpReply {
  return jsonRpcErrorReply(
    400,
    ErrorCode.UnsupportedProtocolVersion,
    `Bad Request: unsupported MCP-Protocol-Version ${version} for a session (start 2026-07-28 requests without Mcp-Session-Id)`,
    undefined,
    undefined,
    { supported: newestFirst(LEGACY_REVISIONS), requested: version },
  );
}
