import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { INPUT_METHODS } from "../../protocol/methods.js";
import type { InputRequest, InputRequiredResult } from "../../protocol/types/modern.js";

/** How many input-required rounds one call may take before the client gives up. */
export const DEFAULT_MAX_INPUT_ROUNDS = 16;

const invalid = (message: string) => new McpError(ErrorCode.InternalError, message, { reason: "invalid-result" });

/**
 * basic/patterns/mrtr §Client Requirements: sends `params`, and while the server answers
 * `resultType: "input_required"`, answers every input request and sends the original
 * params again with `inputResponses` and the exact `requestState` (left out when the
 * server gave none). `send` makes each attempt a new JSON-RPC request, so each has a new
 * id. A result without `resultType` (an older server) is complete (basic/index §ResultType).
 * Input responses and state go into this call's retry only, never into other requests.
 */
export async function untilComplete(
  method: string,
  params: JsonObject,
  send: (params: JsonObject) => Promise<JsonObject>,
  answer: (key: string, request: InputRequest) => Promise<JsonObject>,
  maxRounds = DEFAULT_MAX_INPUT_ROUNDS,
  acceptsTask = false,
): Promise<JsonObject> {
  let attempt = params;
  for (let round = 1; ; round++) {
    const result = await send(attempt);
    const type = result.resultType;
    if (type === undefined || type === "complete") return result;
    // The Tasks extension: a tools/call that declared it may be answered with a task.
    if (type === "task" && acceptsTask) return result;
    // basic/index §ResultType: a value the client does not know is invalid.
    if (type !== "input_required")
      throw invalid(`The server answered with an unknown resultType ${JSON.stringify(type)}`);
    // A list result never comes from a retry, so a cached one never depends on input
    // responses (server/utilities/caching §Cache Key).
    if (!INPUT_METHODS.has(method)) throw invalid(`The server asked for input on ${method}, which cannot ask for any`);
    const { inputRequests, requestState } = result as Partial<InputRequiredResult>;
    if (inputRequests === undefined && typeof requestState !== "string")
      throw invalid("The server asked for input but sent neither inputRequests nor requestState");
    if (round >= maxRounds)
      throw new McpError(ErrorCode.InternalError, `The server still asked for input after ${round} rounds`, {
        reason: "too-many-rounds",
      });
    const next: JsonObject = { ...params };
    if (inputRequests !== undefined) next.inputResponses = await answerAll(inputRequests, answer);
    if (typeof requestState === "string") next.requestState = requestState;
    attempt = next;
  }
}

/** Answers every input request (in parallel: they are independent) into an InputResponses map. */
async function answerAll(
  requests: Record<string, InputRequest>,
  answer: (key: string, request: InputRequest) => Promise<JsonObject>,
): Promise<JsonObject> {
  if (typeof requests !== "object" || requests === null || Array.isArray(requests))
    throw invalid("The server's inputRequests is not an object");
  const entries = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      if (typeof request?.method !== "string") throw invalid(`Input request ${JSON.stringify(key)} has no method`);
      return [key, await answer(key, request)] as const;
    }),
  );
  return Object.fromEntries(entries);
}
