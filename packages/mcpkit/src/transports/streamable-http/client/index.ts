export type {
  FetchLike,
  HeaderSource,
  HttpClientOptions,
  ReconnectOptions,
  StreamableHttpClientOptions,
} from "../../http/client/http-client-options.js";
export { SESSION_EXPIRED_MESSAGE } from "../../http/client/http-errors.js";
export { type RedirectPolicy, RedirectRefusedError } from "../../http/client/redirects.js";
export {
  type SseClientOptions,
  type SseClientTransport,
  sseClientTransport,
} from "../../sse-legacy/sse-client-transport.js";
export { type StreamableHttpClientTransport, streamableHttpClientTransport } from "./transport.js";
