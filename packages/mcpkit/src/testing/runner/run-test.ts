import type { Client } from "../../client/client.js";
import { McpError } from "../../jsonrpc/errors.js";
import { check, type Observed, type Outcome } from "./expectations.js";
import { send } from "./send.js";
import type { TestCase } from "./test-file.js";

/** One test's verdict. */
export interface TestResult {
  name: string;
  ok: boolean;
  /** How long its request took, ms. */
  ms: number;
  /** What did not hold, one sentence each (empty when it passed). */
  failures: string[];
}

/** What the runner hears of the connection while a request is out. */
export interface Listening {
  /** Starts keeping what arrives; the function returned stops and gives it. */
  watch(): () => WireSeen;
}

export interface WireSeen {
  notifications: { method: string; params?: unknown }[];
  /** The codes of the JSON-RPC errors that came: a timeout or a lost connection brings none. */
  errorCodes: number[];
}

/** Runs one test on a connected client. */
export async function runTest(
  client: Client,
  test: TestCase,
  listening: Listening,
  timeoutMs: number,
): Promise<TestResult> {
  const stop = listening.watch();
  const started = performance.now();
  let outcome: Outcome;
  try {
    const wantsProgress = test.expect.notifications?.some(
      (n) => (typeof n === "string" ? n : n.method) === "notifications/progress",
    );
    const result = await send(client, test.request, { timeoutMs, ...(wantsProgress && { onprogress: () => {} }) });
    outcome = { kind: "result", result: result as Record<string, unknown> };
  } catch (error) {
    const seen = stop();
    const ms = performance.now() - started;
    // A JSON-RPC error the server answered, or one the client gives without asking (a
    // capability the server lacks). A timeout or a lost connection is no answer at all.
    const answered =
      error instanceof McpError && (seen.errorCodes.includes(error.code) || !LOCAL_FAILURES.includes(error.code));
    if (!answered) return { name: test.name, ok: false, ms, failures: [`no answer: ${(error as Error).message}`] };
    const rpc = error as McpError;
    outcome = {
      kind: "error",
      code: rpc.code,
      message: rpc.message,
      ...(rpc.data !== undefined && { data: rpc.data }),
    };
    return verdict(test, { outcome, ms, notifications: seen.notifications });
  }
  const seen = stop();
  return verdict(test, { outcome, ms: performance.now() - started, notifications: seen.notifications });
}

/** The codes the client makes itself for a request that got no answer: a timeout, a closed connection. */
const LOCAL_FAILURES = [-32001, -32000];

async function verdict(test: TestCase, observed: Observed): Promise<TestResult> {
  const failures = await check(test.expect, observed);
  return { name: test.name, ok: failures.length === 0, ms: observed.ms, failures };
}
