import type { ServerFlags } from "./served.js";

/**
 * The built-in servers of `mcpkit serve` (their code is @mcpkit/servers), each loaded only
 * when it is the one served (or when help lists them all). A new server is a factory and
 * an options table in @mcpkit/servers, a module here, and a line below.
 */
export const SERVERS: Record<string, () => Promise<{ flags: ServerFlags }>> = {
  everything: () => import("./everything.js"),
  workspace: () => import("./workspace.js"),
  weather: () => import("./weather.js"),
  github: () => import("./github.js"),
  proxy: () => import("./proxy.js"),
  openapi: () => import("./openapi.js"),
};

export const SERVER_NAMES = Object.keys(SERVERS);

/** The flags module of the server `name`, or undefined for no such built-in server. */
export async function serverFlags(name: string): Promise<ServerFlags | undefined> {
  const load = SERVERS[name];
  return load ? (await load()).flags : undefined;
}
