import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import type { Progress, RequestOptions } from "./connection-options.js";

/**
 * One request we sent and still wait on: its timeout (basic/lifecycle §Timeouts: restarted
 * by progress unless told otherwise, never beyond maxTotalTimeoutMs), its caller's abort
 * signal, and the promise it settles.
 */
export class OutboundRequest {
  readonly method: string;
  readonly options: RequestOptions | undefined;
  private readonly startedAt = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private cleanup: (() => void) | undefined;
  private readonly resolveWith: (result: JsonObject) => void;
  private readonly rejectWith: (error: unknown) => void;

  constructor(
    method: string,
    options: RequestOptions | undefined,
    resolve: (result: JsonObject) => void,
    reject: (error: unknown) => void,
  ) {
    this.method = method;
    this.options = options;
    this.resolveWith = resolve;
    this.rejectWith = reject;
  }

  /** Calls `cancel` when the caller's signal aborts. */
  watch(cancel: (reason: unknown) => void): void {
    const signal = this.options?.signal;
    if (!signal) return;
    const onAbort = () => cancel(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    this.cleanup = () => signal.removeEventListener("abort", onAbort);
  }

  /** (Re)starts the timeout; `expire` gets the RequestTimeout error. */
  arm(defaultTimeoutMs: number, expire: (error: McpError) => void): void {
    if (this.timer) clearTimeout(this.timer);
    const timeout = this.options?.timeoutMs ?? defaultTimeoutMs;
    let wait = timeout > 0 ? timeout : Number.POSITIVE_INFINITY;
    const max = this.options?.maxTotalTimeoutMs;
    if (max !== undefined) wait = Math.min(wait, Math.max(0, this.startedAt + max - Date.now()));
    if (wait === Number.POSITIVE_INFINITY) return;
    this.timer = setTimeout(() => {
      const elapsed = Date.now() - this.startedAt;
      expire(
        new McpError(ErrorCode.RequestTimeout, `Request ${this.method} timed out after ${elapsed} ms`, { timeout }),
      );
    }, wait);
  }

  /** basic/utilities/progress: hands it to the caller; true when the timeout should restart. */
  progress(params: JsonObject): boolean {
    const onprogress = this.options?.onprogress;
    if (!onprogress || typeof params.progress !== "number") return false;
    const progress: Progress = { progress: params.progress };
    if (typeof params.total === "number") progress.total = params.total;
    if (typeof params.message === "string") progress.message = params.message;
    onprogress(progress);
    return this.options?.resetTimeoutOnProgress !== false;
  }

  resolve(result: JsonObject): void {
    this.stop();
    this.resolveWith(result);
  }

  reject(error: unknown): void {
    this.stop();
    this.rejectWith(error);
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.cleanup?.();
  }
}
