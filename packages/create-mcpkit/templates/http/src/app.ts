import { createStreamableHttpHandler, listen } from "mcpkit/http";
import createAppServer from "./server.js";

/** The server, listening on 127.0.0.1:port (0: any free port). */
export async function start(port: number): Promise<{ url: URL; close(): Promise<void> }> {
  const listening = await listen(createStreamableHttpHandler(createAppServer()), { port });
  return { url: new URL("/mcp", listening.url), close: () => listening.close() };
}
