import type { IncomingMessage, ServerResponse } from "node:http";
import type { FetchHandler } from "./exchange.js";
import { type NodeListenerOptions, serveNodeRequest } from "./node.js";

/** The parts of a Fastify request and reply the route uses (Fastify is not a dependency). */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly body?: unknown;
}
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  hijack(): unknown;
}

/**
 * A Fastify route for an MCP endpoint: `app.all("/mcp", fastifyHandler(mcp))`. Fastify has
 * parsed the JSON body already; the reply is taken over (hijacked) so that SSE streams are
 * written as they are produced.
 */
export function fastifyHandler(
  handler: FetchHandler,
  options: NodeListenerOptions = {},
): (request: FastifyRequestLike, reply: FastifyReplyLike) => void {
  return (request, reply) => {
    reply.hijack();
    serveNodeRequest(handler, request.raw, reply.raw, request.body, options);
  };
}
