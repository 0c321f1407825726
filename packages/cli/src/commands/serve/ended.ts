/** Fails with `why` once `ended` resolves: the server cannot go on (a proxied server exited). */
export const failWhen = (ended: Promise<string> | undefined) =>
  ended?.then((why) => {
    throw new Error(why);
  }) ?? new Promise<never>(() => {});
