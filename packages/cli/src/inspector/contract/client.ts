import type { Answer, OpFailure, OpName, RequestOf, ResponseOf } from "./operations.js";

/**
 * The page's typed client of the operation table: `call("tools/call", { name, arguments })`
 * compiles only with a name the table has and the body it names, and gives the answer's
 * type. Small on purpose (hono's typed client is the model): one POST per call, the
 * envelope unwrapped, failures thrown as ApiError.
 */

/** The part of fetch the client uses (the browser's, or Node's in tests). */
export type PostJson = (
  url: string,
  init: { method: "POST"; headers: Record<string, string>; body: string },
) => Promise<{ status: number; json(): Promise<unknown> }>;

export interface OpClientOptions {
  fetch: PostJson;
  /** Headers for every request: the page's key. */
  headers?: () => Record<string, string>;
  /** Where the API is (default: this origin's /api/). */
  base?: string;
  /** The inspector refused the page itself (401: no key, or another run's). */
  onRefused?: (message: string) => void;
}

/** An operation failed: the server's JSON-RPC error, or the inspector's own refusal (status 400, 401, 404). */
export class ApiError extends Error implements OpFailure {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A body may be left out where the operation takes none. */
type BodyArgs<N extends OpName> =
  Record<string, never> extends RequestOf<N> ? [body?: RequestOf<N>] : [body: RequestOf<N>];

export interface OpClient {
  call<N extends OpName>(name: N, ...body: BodyArgs<N>): Promise<ResponseOf<N>>;
}

export function opClient(options: OpClientOptions): OpClient {
  const base = options.base ?? "/api/";
  return {
    async call(name, ...[body]) {
      const response = await options.fetch(`${base}${name}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...options.headers?.() },
        body: JSON.stringify(body ?? {}),
      });
      const answer = await response.json().then(
        (value) => value as Answer<never>,
        () => ({ error: { message: `The inspector answered HTTP ${response.status} without a body` } }),
      );
      if ("value" in answer) return answer.value;
      const { message, code, data }: OpFailure = answer.error ?? { message: `HTTP ${response.status}` };
      if (response.status === 401) options.onRefused?.(message);
      throw new ApiError(message, code, data, response.status);
    },
  };
}
