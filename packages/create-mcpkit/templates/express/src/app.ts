import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import { createStreamableHttpHandler, type StreamableHttpHandler, toNodeListener } from "mcpkit/http";
import createAppServer from "./server.js";

/** The Express app: MCP at /mcp, beside any routes of your own. */
export function createApp(mcp: StreamableHttpHandler): Express {
  const app = express();
  app.use(express.json({ limit: "4mb" })); // optional: mcpkit reads req.body when a parser ran
  app.all("/mcp", toNodeListener(mcp));
  app.get("/", (_req, res) => {
    res.type("text/plain").send("{{name}}: the MCP endpoint is /mcp\n");
  });
  return app;
}

/** The app listening on 127.0.0.1:port (0: any free port). */
export async function start(port: number): Promise<{ url: URL; close(): Promise<void> }> {
  const mcp = createStreamableHttpHandler(createAppServer());
  const server = createApp(mcp).listen(port, "127.0.0.1");
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
