// docs/composition.md: a stdio-only server offered over Streamable HTTP, both eras.
import { createProxy } from "mcpkit/compose";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { stdioClientTransport } from "mcpkit/stdio";

/**
 * Starts `command args` and serves it on http://127.0.0.1:PORT/mcp. Given a function that
 * starts it, the proxy starts one more for each client session when the server keeps
 * state per connection (a legacy one): its roots, logs and subscriptions are that client's.
 * @param {string} command
 * @param {string[]} args
 */
export async function frontOverHttp(command, args, port = 0) {
  const proxy = await createProxy(() => stdioClientTransport({ command, args }));
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
