export { type SseClientOptions, type SseClientTransport, sseClientTransport } from "../../sse-legacy/client.js";
export { SESSION_EXPIRED_MESSAGE } from "./errors.js";
export type {
  FetchLike,
  HeaderSource,
  HttpClientOptions,
  ReconnectOptions,
  StreamableHttpClientOptions,
} from "./options.js";
export { type StreamableHttpClientTransport, streamableHttpClientTransport } from "./transport.js";
