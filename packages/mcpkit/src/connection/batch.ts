import { messageProblem } from "../jsonrpc/message.js";
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from "../jsonrpc/types.js";

/** Where a batch gathers the response of one of its requests; `undefined`: none is due (it was cancelled). */
export type Collect = (response: JsonRpcResponse | undefined) => void;

/** How a connection handles each message of a batch. */
export interface BatchHandlers {
  /** Runs a request, handing its response to `collect` instead of sending it. */
  request(request: JsonRpcRequest, collect: Collect): void;
  /** A notification or a response: handled as if it came alone. */
  other(message: JsonRpcMessage): void;
  /** The answer to a member that is no JSON-RPC message. */
  invalid(value: unknown, problem: string): JsonRpcResponse;
}

/**
 * The members of a non-empty batch (JSON-RPC 2.0 §6), each handled in turn; resolves with
 * the responses due, to be sent as one batch, or is undefined when no member was a request.
 * Each answer resolves (a failed handler is answered as an error).
 */
export function runBatch(values: unknown[], handlers: BatchHandlers): Promise<JsonRpcResponse[]> | undefined {
  const answers: Promise<JsonRpcResponse | undefined>[] = [];
  for (const value of values) {
    const problem = messageProblem(value);
    if (problem !== undefined) {
      answers.push(Promise.resolve(handlers.invalid(value, problem)));
      continue;
    }
    const message = value as JsonRpcMessage;
    if ("method" in message && "id" in message)
      answers.push(new Promise((resolve) => handlers.request(message as JsonRpcRequest, resolve)));
    else handlers.other(message);
  }
  if (answers.length === 0) return undefined;
  return Promise.all(answers).then((responses) => responses.filter((r): r is JsonRpcResponse => r !== undefined));
}
