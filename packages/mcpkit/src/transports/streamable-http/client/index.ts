export { SESSION_EXPIRED_MESSAGE } from "../../http/client/errors.js";
export type {
  FetchLike,
  HeaderSource,
  HttpClientOptions,
  ReconnectOptions,
  StreamableHttpClientOptions,
} from "../../http/client/http-client-options.js";
export { type RedirectPolicy, RedirectRefusedError } from "../../http/client/redirects.js";
export { type SseClientOptions, type SseClientTransport, sseClientTransport } from "../../sse-legacy/client.js";
export { type StreamableHttpClientTransport, streamableHttpClientTransport } from "./transport.js";
