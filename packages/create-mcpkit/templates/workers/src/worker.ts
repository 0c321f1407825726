import { createStreamableHttpHandler, type FetchHandler, routeByPath } from "mcpkit/http";
import createAppServer from "./server.js";

/** The worker's settings (wrangler.jsonc "vars", and secrets set with `wrangler secret put`). */
export interface Env {
  /** Host names the worker answers to, comma-separated: its workers.dev name or your domain. */
  ALLOWED_HOSTS?: string;
  /** At least 32 bytes, the same in every isolate: signs multi round-trip request state. */
  MCP_REQUEST_STATE_KEY?: string;
}

let routes: FetchHandler | undefined;

/**
 * A 2026-07-28 server without sessions: every request carries what it needs, so any
 * isolate can answer it. Workers allow no timers or random values at module scope, so
 * the server is made on the first request.
 */
export default {
  fetch(request: Request, env: Env): Promise<Response> {
    if (!routes) {
      const server = createAppServer({
        revisions: ["2026-07-28"],
        ...(env.MCP_REQUEST_STATE_KEY && { requestStateKey: env.MCP_REQUEST_STATE_KEY }),
      });
      const hosts = env.ALLOWED_HOSTS?.split(",").map((host) => host.trim()) ?? [];
      const mcp = createStreamableHttpHandler(server, {
        sessions: false,
        allowedHosts: [...hosts, "localhost", "127.0.0.1"],
      });
      routes = routeByPath((path) => (path === "/mcp" ? mcp : undefined));
    }
    return routes.fetch(request);
  },
};
