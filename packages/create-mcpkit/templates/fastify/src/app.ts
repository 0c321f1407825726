import Fastify, { type FastifyInstance } from "fastify";
import { createStreamableHttpHandler, fastifyHandler, type StreamableHttpHandler } from "mcpkit/http";
import createAppServer from "./server.js";

/** The Fastify app: MCP at /mcp, beside any routes of your own. */
export function createApp(mcp: StreamableHttpHandler): FastifyInstance {
  const app = Fastify({ bodyLimit: 4 * 1024 * 1024 }); // mcpkit's limit (Fastify's default: 1 MiB)
  app.all("/mcp", fastifyHandler(mcp));
  app.get("/", async () => "{{name}}: the MCP endpoint is /mcp\n");
  return app;
}

/** The app listening on 127.0.0.1:port (0: any free port). */
export async function start(port: number): Promise<{ url: URL; close(): Promise<void> }> {
  const mcp = createStreamableHttpHandler(createAppServer());
  const app = createApp(mcp);
  const address = await app.listen({ host: "127.0.0.1", port });
  return {
    url: new URL("/mcp", address),
    async close() {
      await mcp.close();
      await app.close();
    },
  };
}
