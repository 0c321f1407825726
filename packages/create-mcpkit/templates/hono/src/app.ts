import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createStreamableHttpHandler, type StreamableHttpHandler } from "mcpkit/http";
import createAppServer from "./server.js";

/** The Hono app: MCP at /mcp, beside any routes of your own. */
export function createApp(mcp: StreamableHttpHandler): Hono {
  const app = new Hono();
  app.all("/mcp", (c) => mcp.fetch(c.req.raw));
  app.get("/", (c) => c.text("{{name}}: the MCP endpoint is /mcp\n"));
  return app;
}

/** The app on Node, listening on 127.0.0.1:port (0: any free port). */
export async function start(port: number): Promise<{ url: URL; close(): Promise<void> }> {
  const mcp = createStreamableHttpHandler(createAppServer());
  const app = createApp(mcp);
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port });
  await new Promise((resolve) => server.once("listening", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${bound}/mcp`),
    async close() {
      await mcp.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
