import { readableId } from "../../jsonrpc/message.js";
import { DEFAULT_NEGOTIATED_REVISION } from "../../protocol/versions.js";
import type { ServerDefinition } from "../../server/definition.js";
import { handshakeRefused } from "../../server/eras/handshake.js";
import type { HttpReply, HttpRequest } from "../../transports/http/exchange.js";
import { jsonRpcErrorReply } from "../../transports/http/responses.js";

/**
 * A POST of a legacy revision to a server of modern revisions only (ServerOptions.revisions):
 * 400 with UnsupportedProtocolVersionError naming the revisions it serves, and no session
 * opened (transports/streamable-http §Protocol Version Header; basic/versioning §Backward
 * Compatibility: the message may be all a legacy client can show).
 */
export function refuseLegacy(server: ServerDefinition, request: HttpRequest, body: unknown): HttpReply {
  const message = Array.isArray(body) ? undefined : (body as { params?: { protocolVersion?: unknown } } | null);
  const asked = message?.params?.protocolVersion;
  const requested =
    typeof asked === "string"
      ? asked
      : (request.headers.get("mcp-protocol-version")?.trim() ?? DEFAULT_NEGOTIATED_REVISION);
  const error = handshakeRefused(server.revisions, requested);
  return jsonRpcErrorReply(400, error.code, error.message, undefined, readableId(message), error.data);
}
