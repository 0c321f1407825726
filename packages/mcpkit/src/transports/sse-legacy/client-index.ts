export { type SseClientOptions, type SseClientTransport, sseClientTransport } from "./client.js";
