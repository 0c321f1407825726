import type { IncomingMessage } from "node:http";
import { ErrorCode } from "../../jsonrpc/errors.js";

/**
 * Bodies that a framework read before the MCP endpoint saw the request: Express's
 * express.json() (and Fastify, Koa and others) consume the socket stream and keep what they
 * parsed, so the adapter takes that instead of waiting for a stream that has ended.
 */

/** True when something else has read the request's body stream to its end. */
export const bodyWasRead = (req: IncomingMessage): boolean => req.readableEnded;

/** A parsed body as JSON text: a string or bytes as they are, anything else serialized again. */
export function parsedBodyText(parsed: unknown): string {
  if (typeof parsed === "string") return parsed;
  if (parsed instanceof Uint8Array)
    return Buffer.from(parsed.buffer, parsed.byteOffset, parsed.byteLength).toString("utf8");
  return JSON.stringify(parsed) ?? "";
}

/** The 500 for a POST whose body was read by another handler that kept nothing of it. */
export const BODY_GONE = JSON.stringify({
  jsonrpc: "2.0",
  error: {
    code: ErrorCode.InternalError,
    message:
      "The request body was read before the MCP endpoint saw it and no parsed body was passed on: " +
      "mount the endpoint before the body parser, or pass the parsed body (Express's req.body is picked up by itself)",
  },
});
