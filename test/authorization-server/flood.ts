import { expect } from "vitest";
import type { setup } from "./in-process.js";

// The flood of issue 34, as a crowd of addresses sends it: 500 addresses registering 20
// clients each (what each may in an hour) and 167 addresses starting 60 sign-ins each
// (what each may in 10 minutes), 10,000 of each, which once filled the server's caps and
// locked every new address out for 90 days. Shared by the in-memory run and the Redis run.

/** The i-th address of the crowd, in 198.18.0.0/15 (benchmarking): one caller each. */
export const crowdAddress = (i: number) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/** What a flood was answered: how many of each status, and the longest Retry-After. */
export interface FloodAnswers {
  statuses: Record<number, number>;
  longestRetryAfterSec: number;
}

/** Sends `count` requests, `concurrency` at a time (the crowd is many callers at once). */
export async function flood(
  count: number,
  concurrency: number,
  request: (i: number) => Promise<Response>,
): Promise<FloodAnswers> {
  const answers: FloodAnswers = { statuses: {}, longestRetryAfterSec: 0 };
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const response = await request(next++);
      answers.statuses[response.status] = (answers.statuses[response.status] ?? 0) + 1;
      const retryAfter = response.headers.get("retry-after");
      if (retryAfter !== null)
        answers.longestRetryAfterSec = Math.max(answers.longestRetryAfterSec, Number(retryAfter));
      await response.body?.cancel();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

type Server = ReturnType<typeof setup>;

/** 500 addresses × 20 registrations: every one answered 201, nobody refused, nothing to retry. */
export async function registrationFlood(server: Server, addresses = 500, each = 20): Promise<void> {
  const answers = await flood(addresses * each, 25, (i) => server.from(crowdAddress(i % addresses)).register());
  expect(answers).toEqual({ statuses: { 201: addresses * each }, longestRetryAfterSec: 0 });
  // One more from a crowd address is over its rate: refused, and told to come back within the hour.
  const over = await server.from(crowdAddress(0)).register();
  expect(over.status).toBe(429);
  expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
}

/** 167 addresses × 60 sign-ins started with `clientId` (each shown its consent page, none finished). */
export async function signInFlood(server: Server, clientId: string, addresses = 167, each = 60): Promise<void> {
  const answers = await flood(addresses * each, 25, (i) =>
    server.from(crowdAddress(1000 + (i % addresses))).authorize(clientId),
  );
  expect(answers).toEqual({ statuses: { 200: addresses * each }, longestRetryAfterSec: 0 });
}

/** A new address registers a client and its person signs in, all the way to a token. */
export async function newcomerSignsIn(server: Server, address = "192.0.2.77"): Promise<void> {
  const newcomer = server.from(address);
  const clientId = await newcomer.registered();
  const signedIn = await newcomer.signIn(clientId);
  expect(signedIn, JSON.stringify(signedIn.at)).toMatchObject({ ok: true });
}
