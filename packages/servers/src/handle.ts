import type { McpServer, ServerOptions } from "mcpkit/server";

/**
 * What each factory of this package gives: the server, ready to mount on a hub
 * (`hub.mount("files", handle.server)`) or to serve over any transport, and `close()`,
 * which releases what it holds (file watchers, child processes, upstream connections).
 */
export interface ServerHandle {
  server: McpServer;
  /** What is being served, in a few lines for a terminal (empty when there is nothing to say). */
  summary: string;
  /** Releases what the server holds; the server itself is closed by whoever serves it. */
  close(): Promise<void>;
}

/**
 * To serve as one node of a cluster: the bus and the request-state key every node shares
 * (docs/deployment.md).
 */
export type ClusterOptions = Pick<ServerOptions, "eventBus" | "requestStateKey">;
