import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import type { OutboundRequest } from "./outbound-request.js";

/** Cancelled requests kept waiting for a late result, at most. */
const MAX_LATE = 1000;

/**
 * The requests one connection sent that await their answers, and the cancelled ones whose
 * result is still wanted should it come (RequestOptions.onLateResult). Each map is made when
 * first needed and dropped when empty: an idle session holds neither.
 */
export class OutboundRequests {
  private pending: Map<RequestId, OutboundRequest> | undefined;
  private late: Map<RequestId, (result: JsonObject) => void> | undefined;

  add(id: RequestId, entry: OutboundRequest): void {
    this.pending ??= new Map();
    this.pending.set(id, entry);
  }

  get(id: RequestId): OutboundRequest | undefined {
    return this.pending?.get(id);
  }

  forget(id: RequestId): void {
    this.pending?.delete(id);
    if (this.pending?.size === 0) this.pending = undefined;
  }

  /** Keeps what wants the late result of the cancelled request `id`; the oldest goes past the bound. */
  keepForLate(id: RequestId, onLate: (result: JsonObject) => void): void {
    this.late ??= new Map();
    // Bounded: most cancelled requests never get a late result.
    if (this.late.size >= MAX_LATE) this.late.delete(this.late.keys().next().value as RequestId);
    this.late.set(id, onLate);
  }

  /** What wants the late result of `id`, forgotten (a result comes once). */
  takeLate(id: RequestId): ((result: JsonObject) => void) | undefined {
    const late = this.late?.get(id);
    this.late?.delete(id);
    return late;
  }

  /** Every request still waiting, forgotten with the late ones: the connection closed. */
  drain(): Map<RequestId, OutboundRequest> | undefined {
    const pending = this.pending;
    this.pending = undefined;
    this.late = undefined;
    return pending;
  }
}
