/**
 * Values a server middleware hands to the handlers of the same request (hono's typed
 * per-request variables, keyed by an object instead of declared in an Env): the key
 * carries the value's type, so `ctx.get(key)` is typed wherever the key is in scope.
 */

/** Names one per-request value; `T` is its type. Make one with `requestKey<T>(name)`. */
export interface RequestKey<T> {
  /** For messages and debugging; two keys with one name are still two keys. */
  readonly name: string;
  /** Never set: it only carries `T`. */
  readonly valueType?: (value: T) => T;
}

/** A key for a value middleware sets (`ctx.set(key, value)`) and handlers read (`ctx.get(key)`). */
export function requestKey<T>(name: string): RequestKey<T> {
  return Object.freeze({ name });
}

/** The values set for one request: made on the first `set`. */
export class RequestValues {
  private readonly values = new Map<object, unknown>();

  get<T>(key: RequestKey<T>): T | undefined {
    // Only set() puts values in, each under a key of its own type.
    return this.values.get(key) as T | undefined;
  }

  set<T>(key: RequestKey<T>, value: T): void {
    this.values.set(key, value);
  }
}
