/** A step that took longer than its limit. */
export class StepTimeout extends Error {
  override name = "StepTimeout";
  constructor(readonly ms: number) {
    super(`no answer within ${formatMs(ms)}`);
  }
}

export const formatMs = (ms: number) => (ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/** Resolves as `promise` does, or rejects with StepTimeout after `ms` (0: no limit). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
