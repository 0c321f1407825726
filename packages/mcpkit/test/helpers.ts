import type { Client } from "../src/client/client.js";
import type { JsonObject, JsonRpcMessage } from "../src/jsonrpc/types.js";
import type { Transport, TransportSink } from "../src/transports/transport.js";

/** A transport end driven by hand: what the peer sent is collected, and we push raw values. */
export function rawPeer(transport: Transport) {
  const received: JsonRpcMessage[] = [];
  const waiters: { test: (m: JsonRpcMessage) => boolean; resolve: (m: JsonRpcMessage) => void }[] = [];
  let closed = false;
  let markClosed = () => {};
  const whenClosed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const sink: TransportSink = {
    message(value) {
      const message = value as JsonRpcMessage;
      const batch = Array.isArray(value) ? (value as JsonRpcMessage[]) : [message];
      for (const m of batch) {
        received.push(m);
        const i = waiters.findIndex((w) => w.test(m));
        if (i >= 0) waiters.splice(i, 1)[0]?.resolve(m);
      }
      if (Array.isArray(value)) batches.push(value as JsonRpcMessage[]);
    },
    invalid() {},
    close() {
      closed = true;
      markClosed();
    },
  };
  const batches: JsonRpcMessage[][] = [];
  transport.start(sink);
  let nextId = 1000;
  return {
    received,
    batches,
    get closed() {
      return closed;
    },
    /** Settles when the transport has closed. */
    whenClosed,
    send(value: unknown) {
      transport.send(value as JsonRpcMessage);
    },
    /** Resolves with the first message (already received or future) that passes `test`. */
    next(test: (m: JsonRpcMessage) => boolean, timeoutMs = 2000): Promise<JsonRpcMessage> {
      const found = received.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("timed out waiting for a message")), timeoutMs);
        waiters.push({
          test,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    async request(method: string, params?: JsonObject): Promise<JsonRpcMessage> {
      const id = nextId++;
      transport.send({ jsonrpc: "2.0", id, method, ...(params && { params }) });
      return this.next((m) => "id" in m && m.id === id && !("method" in m));
    },
    notify(method: string, params?: JsonObject) {
      transport.send({ jsonrpc: "2.0", method, ...(params && { params }) });
    },
  };
}

export const initializeParams = (protocolVersion = "2025-11-25", capabilities: JsonObject = {}) => ({
  protocolVersion,
  capabilities,
  clientInfo: { name: "raw", version: "1" },
});

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Records every message sent through `transport`, responses included. */
export function recordSent(transport: Transport): JsonRpcMessage[] {
  const sent: JsonRpcMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(...(Array.isArray(message) ? message : [message]));
    send(message, options);
  };
  return sent;
}

/** Records the method of every request and notification sent through `transport`. */
export function recordSentMethods(transport: Transport): string[] {
  const methods: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!Array.isArray(message) && "method" in message) methods.push(message.method);
    send(message, options);
  };
  return methods;
}

/** Resolves with the params of the next `method` notification `client` receives. */
export function nextNotification(client: Pick<Client, "on">, method: string): Promise<unknown> {
  return new Promise((resolve) => {
    const off = client.on(method, (params) => {
      off();
      resolve(params);
    });
  });
}
