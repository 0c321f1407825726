export { type FastifyReplyLike, type FastifyRequestLike, fastifyHandler } from "../../transports/http/fastify.js";
export type { CorsOptions } from "../../transports/http/guards.js";
export { LOCALHOST_NAMES } from "../../transports/http/localhost.js";
export {
  type FetchHandler,
  type FetchInfo,
  type Listening,
  type ListenOptions,
  listen,
  type NodeListenerOptions,
  serveNodeRequest,
  toNodeListener,
} from "../../transports/http/node.js";
export { routeByPath } from "../../transports/http/router.js";
export {
  applyServerLimits,
  DEFAULT_SERVER_LIMITS,
  type ServerLimits,
} from "../../transports/http/server-limits.js";
export { type ClientAddressOf, clientAddressResolver, type TrustProxy } from "../../transports/http/trust-proxy.js";
export {
  type EventStore,
  InMemoryEventStore,
  type InMemoryEventStoreOptions,
} from "../../transports/streamable-http/server/event-store.js";
export { createSseHandler, type SseHandler, type SseServerOptions } from "../sse/handler.js";
export type { StreamableHttpHandler, StreamableHttpOptions } from "./endpoint-options.js";
export { createStreamableHttpHandler } from "./handler.js";
export { SERVER_CARD_PATHS, type ServerCardOptions, serverCardHandler } from "./server-card.js";
