import type { JsonRpcMessage, RequestId } from "../../../jsonrpc/types.js";

/** What the HTTP client needs to know about the messages it carries, without parsing MCP. */

const list = (message: JsonRpcMessage | JsonRpcMessage[]) => (Array.isArray(message) ? message : [message]);

/** The ids of the requests in a message or batch: the responses a POST owes us. */
export function requestIds(message: JsonRpcMessage | JsonRpcMessage[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const m of list(message)) if ("method" in m && "id" in m) ids.push(m.id);
  return ids;
}

export const isInitialize = (message: JsonRpcMessage | JsonRpcMessage[]) =>
  list(message).some((m) => "method" in m && m.method === "initialize" && "id" in m);

/** The request a `notifications/cancelled` we send gives up on. */
export function cancelledId(message: JsonRpcMessage | JsonRpcMessage[]): RequestId | undefined {
  for (const m of list(message)) {
    if (!("method" in m) || m.method !== "notifications/cancelled") continue;
    const id = m.params?.requestId;
    if (typeof id === "string" || typeof id === "number") return id;
  }
  return undefined;
}

/** The ids of responses in a decoded value from the server (one message or a batch). */
export function responseIds(value: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const m of Array.isArray(value) ? value : [value]) {
    if (typeof m !== "object" || m === null || "method" in m) continue;
    const id = (m as { id?: unknown }).id;
    if (("result" in m || "error" in m) && (typeof id === "string" || typeof id === "number")) ids.push(id);
  }
  return ids;
}
