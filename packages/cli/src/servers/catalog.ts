import type { ServerFlags } from "./served.js";

/**
 * The built-in servers of `mcpkit serve`, each loaded only when it is the one served (or
 * when help lists them all). A new server is a folder with a flags.ts and a line here.
 */
export const SERVERS: Record<string, () => Promise<{ flags: ServerFlags }>> = {
  everything: () => import("./everything/flags.js"),
  workspace: () => import("./workspace/flags.js"),
  weather: () => import("./weather/flags.js"),
  github: () => import("./github/flags.js"),
  proxy: () => import("./proxy/flags.js"),
  openapi: () => import("./openapi/flags.js"),
};

export const SERVER_NAMES = Object.keys(SERVERS);

/** The flags module of the server `name`, or undefined for no such built-in server. */
export async function serverFlags(name: string): Promise<ServerFlags | undefined> {
  const load = SERVERS[name];
  return load ? (await load()).flags : undefined;
}
