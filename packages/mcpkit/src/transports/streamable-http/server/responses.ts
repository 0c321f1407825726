/**
 * An HTTP error whose body is a JSON-RPC error response without an id (transports §Sending
 * Messages: "The HTTP response body MAY comprise a JSON-RPC error response that has no id").
 */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
