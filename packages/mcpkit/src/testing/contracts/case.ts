/**
 * A contract suite is a list of named cases that any implementation of an interface must
 * pass: the same cases for the in-memory implementation and for Redis, for stdio and for
 * HTTP. Cases throw (node:assert) on failure and know no test framework; a test file
 * hands them to its own: `for (const c of suite) it(c.name, c.run)`.
 */
export interface ContractCase {
  readonly name: string;
  run(): Promise<void>;
}

/** Registers every case with a test function such as vitest's or node:test's `it`. */
export function runContract(
  cases: readonly ContractCase[],
  test: (name: string, run: () => Promise<void>, timeoutMs?: number) => unknown,
  timeoutMs?: number,
): void {
  for (const c of cases) test(c.name, () => c.run(), timeoutMs);
}

/** Resolves with the first value `next` yields that `accept` takes, or rejects after `ms`. */
export function waitFor<T>(
  subscribe: (deliver: (value: T) => void) => () => void,
  accept: (value: T) => boolean,
  ms: number,
  what: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`Timed out after ${ms} ms waiting for ${what}`));
    }, ms);
    const stop = subscribe((value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      stop();
      resolve(value);
    });
  });
}
