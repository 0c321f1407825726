// docs/composition.md: a stdio-only server offered over Streamable HTTP, both eras.
import { createProxy } from "mcpkit/compose";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { stdioClientTransport } from "mcpkit/stdio";

/**
 * Starts `command args` as a child and serves it on http://127.0.0.1:PORT/mcp.
 * @param {string} command
 * @param {string[]} args
 */
export async function frontOverHttp(command, args, port = 0) {
  const proxy = await createProxy(stdioClientTransport({ command, args }));
  const endpoint = createStreamableHttpHandler(proxy.server);
  const listening = await listen(endpoint, { port, host: "127.0.0.1" });
  return {
    url: new URL("/mcp", listening.url),
    async close() {
      await listening.close();
      await proxy.close();
    },
  };
}
