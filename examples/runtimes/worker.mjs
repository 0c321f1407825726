// @ts-check
// The portable server as a Cloudflare Worker (wrangler.json beside this file; needs the
// nodejs_compat flag). Workers refuse code generation: mcpkit checks the raw JSON Schemas
// with its eval-free validator there, by itself.
import { createStreamableHttpHandler, routeByPath } from "mcpkit/http";
import { createPortableServer } from "./server.mjs";

/** @type {import("mcpkit/http").FetchHandler | undefined} */
let routes;

export default {
  /**
   * @param {Request} request
   * @param {{ MCP_REQUEST_STATE_KEY?: string }} env
   */
  fetch(request, env) {
    // Workers allow no timers or random values at module scope: build on the first request.
    if (!routes) {
      const server = createPortableServer({ requestStateKey: env.MCP_REQUEST_STATE_KEY });
      const mcp = createStreamableHttpHandler(server);
      routes = routeByPath((path) => (path === "/mcp" ? mcp : undefined));
    }
    return routes.fetch(request);
  },
};
