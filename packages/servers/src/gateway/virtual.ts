import { createServer, type McpServer, type ServerOptions } from "mcpkit/server";
import type { VirtualServerConfig } from "./config/types.js";
import { matches } from "./naming.js";

/** Capabilities a gateway's server declares before its upstreams have started (they start on first use). */
export const GATEWAY_CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
} as const;

/**
 * A virtual server: the gateway's server mounted at the root, showing only the tools
 * (and prompts) the configuration lists, by their served names. The policy's rules come
 * with each definition mounted: a tool listed here that a principal may not use is hidden
 * from them here as everywhere.
 */
export function virtualServer(
  config: VirtualServerConfig,
  gateway: McpServer,
  options: Partial<ServerOptions> & { name: string; version: string },
): McpServer {
  const server = createServer({
    ...options,
    name: `${options.name}${config.path}`,
    ...(config.instructions !== undefined && { instructions: config.instructions }),
    capabilities: config.resources
      ? GATEWAY_CAPABILITIES
      : { tools: { listChanged: true }, prompts: { listChanged: true } },
  });
  server.mount("", gateway, {
    select: (item) =>
      item.kind === "tool"
        ? config.tools.some((p) => matches(p, item.key))
        : item.kind === "prompt"
          ? config.prompts.some((p) => matches(p, item.key))
          : true,
    visible: (_viewer, item) => config.resources || (item.kind !== "resource" && item.kind !== "template"),
  });
  return server;
}
