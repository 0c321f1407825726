import type { Revision } from "mcpkit";
import { Client } from "mcpkit/client";
import { VERSION } from "../version.js";

/** How long the stdio discover probe waits at most before taking the server for a legacy one. */
const DISCOVER_MS = 3000;

/**
 * The client a diagnosis connects with: mcpkit's own, as any user of it connects (the era
 * probe, the handshake, the HTTP+SSE fallback), declaring nothing it could be asked for.
 * `timeoutMs` bounds every request.
 */
export function doctorClient(timeoutMs: number, protocolVersion?: Revision): Client {
  return new Client({
    name: "mcpkit-doctor",
    version: VERSION,
    timeoutMs,
    discoverTimeoutMs: timeoutMs > 0 ? Math.min(DISCOVER_MS, timeoutMs) : DISCOVER_MS,
    ...(protocolVersion !== undefined && { protocolVersion }),
    // What goes wrong is what the checks report; nothing is printed on the side.
    onError: () => {},
  });
}
