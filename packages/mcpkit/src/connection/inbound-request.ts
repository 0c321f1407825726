import type { JsonObject, JsonRpcRequest, RequestId } from "../jsonrpc/types.js";
import type { MessageInfo } from "../transports/transport.js";
import type { RequestValues } from "./request-values.js";

/**
 * One request we are answering. The AbortController is made only when a handler asks
 * for the signal or the peer cancels: most requests never need one.
 */
export class InboundRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly info: MessageInfo | undefined;
  cancelled = false;
  /** What middleware set for this request's handler (made on the first set). */
  values: RequestValues | undefined;
  private controller: AbortController | undefined;

  constructor(request: JsonRpcRequest, info: MessageInfo | undefined) {
    this.id = request.id;
    this.method = request.method;
    this.params = request.params;
    this.info = info;
  }

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  /** basic/utilities/cancellation: the peer no longer wants the answer. */
  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }

  /**
   * Stops the handler's work without cancelling the request: its answer has been given
   * another way (a multi round-trip request's round ended).
   */
  abandon(reason: unknown): void {
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }

  get progressToken(): string | number | undefined {
    const meta = this.params?._meta as { progressToken?: unknown } | undefined;
    const token = meta?.progressToken;
    return typeof token === "string" || typeof token === "number" ? token : undefined;
  }
}
