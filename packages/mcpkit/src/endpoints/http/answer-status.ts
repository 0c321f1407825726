import type { ResourceServer } from "../../auth/server/resource-server.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import type { HttpAnswer } from "../../transports/streamable-http/server/stream.js";

/**
 * The HTTP status of a JSON answer: 403 with a step-up challenge for a missing scope
 * (authorization §Scope Challenge Handling); on the 2026-07-28 path, 404 for an unknown
 * method and 400 for header, capability and version errors (transports §Protocol Version
 * Header, basic/index §_meta). Everything else is 200, its error in the body.
 */
export function httpAnswer(message: JsonRpcMessage, modern: boolean, auth: ResourceServer | undefined): HttpAnswer {
  if (!("error" in message)) return OK;
  const { code, data } = message.error;
  const scope = data as { reason?: unknown; requiredScopes?: unknown } | undefined;
  if (auth && scope?.reason === "insufficient_scope") {
    const scopes = Array.isArray(scope.requiredScopes) ? (scope.requiredScopes as string[]) : undefined;
    return { status: 403, headers: { "www-authenticate": auth.challenge("insufficient_scope", scopes) } };
  }
  if (!modern) return OK;
  if (code === ErrorCode.MethodNotFound) return NOT_FOUND;
  if (
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
  ) {
    return BAD_REQUEST;
  }
  return OK;
}

// Read, never written: one of each for every answer.
const OK: HttpAnswer = Object.freeze({ status: 200 });
const NOT_FOUND: HttpAnswer = Object.freeze({ status: 404 });
const BAD_REQUEST: HttpAnswer = Object.freeze({ status: 400 });
