import { createServer, type McpServer, type Mount, type MountOptions, type ServerOptions } from "mcpkit/server";
import type { VirtualServerConfig } from "./config/types.js";
import { matches } from "./naming.js";

/** Capabilities a gateway's server declares before its upstreams have started (they start on first use). */
export const GATEWAY_CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
} as const;

/** A virtual server: its server, and what it serves. */
export interface VirtualServer {
  readonly server: McpServer;
  readonly config: VirtualServerConfig;
  /**
   * Serves another selection of tools and prompts from the same server: its sessions go on,
   * told of the change (list_changed). False when the change needs a new server (its
   * instructions, or whether it serves resources, are told to clients when they connect).
   */
  reselect(config: VirtualServerConfig): boolean;
}

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
): VirtualServer {
  const server = createServer({
    ...options,
    name: `${options.name}${config.path}`,
    ...(config.instructions !== undefined && { instructions: config.instructions }),
    capabilities: config.resources
      ? GATEWAY_CAPABILITIES
      : { tools: { listChanged: true }, prompts: { listChanged: true } },
  });
  let current = config;
  let mount: Mount = server.mount("", gateway, selectionOf(config));
  return {
    server,
    get config() {
      return current;
    },
    reselect(next) {
      if (next.instructions !== current.instructions || next.resources !== current.resources) return false;
      mount.unmount();
      mount = server.mount("", gateway, selectionOf(next));
      current = next;
      return true;
    },
  };
}

function selectionOf(config: VirtualServerConfig): MountOptions {
  return {
    select: (item) =>
      item.kind === "tool"
        ? config.tools.some((p) => matches(p, item.key))
        : item.kind === "prompt"
          ? config.prompts.some((p) => matches(p, item.key))
          : true,
    visible: (_viewer, item) => config.resources || (item.kind !== "resource" && item.kind !== "template"),
  };
}
