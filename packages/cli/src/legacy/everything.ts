/**
 * `@mcpkit/cli/everything`, deprecated: the everything server is
 * `@mcpkit/servers/everything` now. This entry re-exports it, and keeps the old factory.
 */
import { everythingServer } from "@mcpkit/servers/everything";
import type { McpServer, ServerOptions } from "mcpkit/server";

export * from "@mcpkit/servers/everything";

/** @deprecated Use `everythingServer({ serverOptions: options }).server` from `@mcpkit/servers/everything`. */
export function createEverythingServer(options: Partial<ServerOptions> = {}): McpServer {
  return everythingServer({ serverOptions: options }).server;
}
