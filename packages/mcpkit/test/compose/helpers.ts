import { afterEach } from "vitest";
import type { ClientOptions } from "../../src/client/index.js";
import { createProxy, type McpProxy, type ProxyOptions } from "../../src/compose/index.js";
import type { JsonObject, JsonRpcMessage } from "../../src/jsonrpc/types.js";
import type { ServerCapabilities } from "../../src/protocol/types/capabilities.js";
import type { McpServer, ServerSession } from "../../src/server/index.js";
import { connectInMemory, createLinkedPair } from "../../src/testing/index.js";
import type { Transport } from "../../src/transports/transport.js";

/** What the proxy tests share: upstreams in memory (real mcpkit servers, or scripted by hand), and cleanup. */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** Runs `close` after the test. */
export const later = (close: () => Promise<void>) => closers.push(close);

/**
 * A connector to `server`: each connection it opens is a session of its own (as a stdio
 * server started again, or a new HTTP session), in `sessions` once connected.
 */
export function connectorTo(server: McpServer) {
  const sessions: ServerSession[] = [];
  const connect = (): Transport => {
    const [clientSide, serverSide] = createLinkedPair();
    void server.connect(serverSide).then((session) => {
      sessions.push(session);
      later(() => session.close());
    });
    return clientSide;
  };
  return { connect, sessions };
}

/** A proxy in front of `server`, closed after the test. */
export async function proxyOf(server: McpServer, options: ProxyOptions = {}): Promise<McpProxy> {
  const proxy = await createProxy(connectorTo(server).connect, options);
  later(() => proxy.close());
  return proxy;
}

/** A client of `proxy`, closed after the test. */
export async function callerOf(proxy: McpProxy, options: Partial<ClientOptions> = {}) {
  const connected = await connectInMemory(proxy.server, options);
  later(connected.close);
  return connected;
}

/**
 * A server written by hand, message by message, for what no well-behaved server does:
 * `answer` gives each request's result (throw to answer with an error). It declares
 * `capabilities` and counts the requests it got by method.
 */
export function scriptedUpstream(
  capabilities: ServerCapabilities,
  answer: (method: string, params: JsonObject) => object | Promise<object> = () => ({}),
) {
  const [clientSide, serverSide] = createLinkedPair();
  const counts = new Map<string, number>();
  const send = (message: JsonRpcMessage) => serverSide.send(message);
  serverSide.start({
    message: async (value) => {
      const message = value as { id?: number | string; method?: string; params?: JsonObject };
      if (message.method === undefined || message.id === undefined) return;
      counts.set(message.method, (counts.get(message.method) ?? 0) + 1);
      if (message.method === "initialize") {
        const result = {
          protocolVersion: message.params?.protocolVersion ?? "2025-11-25",
          capabilities,
          serverInfo: { name: "scripted", version: "1" },
        };
        return send({ jsonrpc: "2.0", id: message.id, result });
      }
      try {
        const result = (await answer(message.method, message.params ?? {})) as JsonObject;
        send({ jsonrpc: "2.0", id: message.id, result });
      } catch (error) {
        send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: String((error as Error).message) } });
      }
    },
    invalid: () => {},
    close: () => {},
  });
  return {
    transport: clientSide,
    count: (method: string) => counts.get(method) ?? 0,
    notify: (method: string, params: JsonObject = {}) => send({ jsonrpc: "2.0", method, params }),
  };
}
