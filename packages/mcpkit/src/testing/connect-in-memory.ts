import { Client, type ClientOptions } from "../client/client.js";
import type { McpServer } from "../server/mcp-server.js";
import type { ServerSession } from "../server/server-session.js";
import { createLinkedPair } from "../transports/memory/linked-pair.js";

/** Connects a client to a server definition in memory: the usual start of a test. */
export async function connectInMemory(
  server: McpServer,
  clientOptions: Partial<ClientOptions> = {},
): Promise<{ client: Client; session: ServerSession; close: () => Promise<void> }> {
  const [clientSide, serverSide] = createLinkedPair();
  const session = await server.connect(serverSide);
  const client = new Client({ name: "test-client", version: "0.0.0", ...clientOptions });
  await client.connect(clientSide);
  return {
    client,
    session,
    close: async () => {
      await client.close();
      await session.closed;
    },
  };
}
