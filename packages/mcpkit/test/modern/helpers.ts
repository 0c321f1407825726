import type { JsonObject, JsonRpcMessage } from "../../src/jsonrpc/types.js";
import type { McpServer } from "../../src/server/mcp-server.js";
import { createLinkedPair } from "../../src/transports/memory/linked-pair.js";
import { rawPeer } from "../helpers.js";

export const MODERN = "2026-07-28";

/** The 2026-07-28 request envelope (basic/index §_meta). */
export function meta(capabilities: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "1" },
    ...extra,
  };
}

type Response = JsonRpcMessage & {
  result?: JsonObject & Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** A raw modern client over the in-memory pair: no handshake, `_meta` on every request. */
export async function modernPeer(server: McpServer) {
  const [a, b] = createLinkedPair();
  const session = await server.connect(b);
  const peer = rawPeer(a);
  return {
    peer,
    session,
    /** Sends a request with the envelope (unless params already carry `_meta`). */
    async call(
      method: string,
      params: JsonObject = {},
      capabilities: JsonObject = {},
      extraMeta: JsonObject = {},
    ): Promise<Response> {
      const withMeta = "_meta" in params ? params : { ...params, _meta: meta(capabilities, extraMeta) };
      return (await peer.request(method, withMeta)) as Response;
    },
  };
}
