/**
 * An endpoint's requests answered on their own (2026-07-28, legacy ones without a session)
 * while they run, for the server's close() to stop them: a list the requests themselves
 * link into, so adding and removing one costs two fields and no allocation or hashing (a
 * Set of them showed in profiles, and a close hook per request was two closures).
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

  /** Stops every request in the list (the server is closing). */
  abandonAll(reason: unknown): void {
    for (const request of this.all()) request.abandon(reason);
  }

  /** Every request in the list, as it is now. */
  all(): RunningRequest[] {
    const out: RunningRequest[] = [];
    for (let r = this.head; r; r = r.nextRunning) out.push(r);
    return out;
  }
}
