import type { TransportKind } from "../contract/events.js";

/** How the connection reaches the server, in words. */
export const TRANSPORT_TEXT: Record<TransportKind, string> = {
  "streamable-http": "Streamable HTTP",
  "http+sse": "HTTP+SSE (2024-11-05)",
  stdio: "stdio",
};
