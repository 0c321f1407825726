import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import { definitionOf, McpServer } from "../server/mcp-server.js";
import type { ServerOptions } from "../server/server-options.js";

/**
 * The proxy's server: an McpServer that declares exactly the capabilities it was given
 * (the upstream's), not those derived from what is registered. A proxy must not promise
 * list changes, subscriptions or logging its upstream does not deliver.
 */
export function mirrorServer(options: ServerOptions, declared: ServerCapabilities): McpServer {
  const server = new McpServer(options);
  definitionOf(server).declare(declared);
  return server;
}
