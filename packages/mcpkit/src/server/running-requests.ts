/**
 * Requests answered on their own (2026-07-28 over HTTP, legacy ones without a session)
 * while they run: a list the requests themselves link into, so adding and removing one
 * costs two fields and no allocation or hashing (a Set of them showed in profiles).
 */
export interface RunningRequest {
  /** The server is closing: the handler's signal aborts with `reason`. */
  abandon(reason: unknown): void;
  /** The list's links, kept by RunningRequests only. */
  previousRunning: RunningRequest | undefined;
  nextRunning: RunningRequest | undefined;
}

export class RunningRequests {
  private head: RunningRequest | undefined;

  add(request: RunningRequest): void {
    request.previousRunning = undefined;
    request.nextRunning = this.head;
    if (this.head) this.head.previousRunning = request;
    this.head = request;
  }

  /** Takes `request` out of the list; one not in it is left alone. */
  remove(request: RunningRequest): void {
    const { previousRunning: previous, nextRunning: next } = request;
    if (previous) previous.nextRunning = next;
    else if (this.head === request) this.head = next;
    else return;
    if (next) next.previousRunning = previous;
    request.previousRunning = undefined;
    request.nextRunning = undefined;
  }

  /** Every request in the list, as it is now. */
  all(): RunningRequest[] {
    const out: RunningRequest[] = [];
    for (let r = this.head; r; r = r.nextRunning) out.push(r);
    return out;
  }
}
