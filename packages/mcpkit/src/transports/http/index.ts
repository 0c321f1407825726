export { createSseHandler, type SseHandler, type SseServerOptions } from "../sse-legacy/server.js";
export {
  type EventStore,
  InMemoryEventStore,
  type InMemoryEventStoreOptions,
} from "../streamable-http/server/event-store.js";
export type { CorsOptions } from "../streamable-http/server/guards.js";
export { LOCALHOST_NAMES } from "../streamable-http/server/guards.js";
export {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpOptions,
} from "../streamable-http/server/handler.js";
export { type FastifyReplyLike, type FastifyRequestLike, fastifyHandler } from "./fastify.js";
export {
  type FetchHandler,
  type Listening,
  type ListenOptions,
  listen,
  serveNodeRequest,
  toNodeListener,
} from "./node.js";
export { routeByPath } from "./router.js";
