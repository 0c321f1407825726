import { resolve } from "node:path";
import type { ClientOptions } from "../../client/client-options.js";
import type { CreateMessageResult, ElicitResult, Root } from "../../protocol/types/features.js";
import { type Connected, connectClient } from "../target/connect-client.js";
import { type ResolvedTarget, resolveTarget, type ServerTarget } from "../target/server-target.js";
import { loadTestFile } from "./load.js";
import { type Listening, runTest, type TestResult, type WireSeen } from "./run-test.js";
import { type ClientAnswers, type TestFile, TestFileError } from "./test-file.js";

export interface FileReport {
  /** The test file, as given. */
  file: string;
  tests: TestResult[];
}

/** What `runTests` found: each file's tests, and the counts. */
export interface TestReport {
  files: FileReport[];
  passed: number;
  failed: number;
}

export interface RunTestsOptions {
  /** The server to test, instead of the files' `server:` (an McpServer, a command or a URL). */
  server?: ServerTarget;
  /** Turns a `server: NAME` into a server (the CLI reads MCP configuration files); without it a name is refused. */
  resolveName?: (name: string, file: TestFile) => ServerTarget | Promise<ServerTarget>;
  /** Told each verdict as it is reached, for a reporter that prints as it goes. */
  onResult?: (file: string, result: TestResult) => void;
  /** Show the servers' stderr (default: kept, and shown when one fails to start). */
  inheritStderr?: boolean;
}

/**
 * Runs test files (docs/testing.md): every file is read and checked, and its server
 * resolved, first, so a mistake in one is reported (a TestFileError) before any server starts; then each file's server
 * is started once and its tests run in order. A server that cannot be reached fails the
 * tests of its file, with why.
 */
export async function runTests(files: string | readonly string[], options: RunTestsOptions = {}): Promise<TestReport> {
  const paths = typeof files === "string" ? [files] : [...files];
  // Every file read and every server resolved first: a mistake is reported before anything runs.
  const loaded: [string, TestFile, ResolvedTarget][] = [];
  for (const path of paths) {
    const file = await loadTestFile(path);
    loaded.push([path, file, await targetOf(file, options)]);
  }
  const report: TestReport = { files: [], passed: 0, failed: 0 };
  for (const [path, file, target] of loaded) {
    const tests = await runFile(file, target, options, (result) => options.onResult?.(path, result));
    report.files.push({ file: path, tests });
    for (const test of tests) test.ok ? report.passed++ : report.failed++;
  }
  return report;
}

async function targetOf(file: TestFile, options: RunTestsOptions): Promise<ResolvedTarget> {
  const fail = (message: string): never => {
    throw new TestFileError(`${file.path}: ${message}`);
  };
  const entry = file.server;
  let target: ServerTarget | undefined = options.server;
  if (target === undefined) {
    if (entry === undefined) return fail("server: say which server to test (a command, a url, or a name)");
    if ("name" in entry) {
      if (!options.resolveName)
        return fail(`server: "${entry.name}" names a server in an MCP configuration file: give a command or a url`);
      target = await options.resolveName(entry.name, file);
    } else target = entry;
  }
  try {
    const resolved = resolveTarget(target);
    // Commands start in the test file's folder (a relative `cwd` is taken from there).
    if (resolved.kind === "command") resolved.cwd = resolve(file.dir, resolved.cwd ?? ".");
    return resolved;
  } catch (error) {
    return fail(`server: ${(error as Error).message}`);
  }
}

/** A file's tests on one connection, made again if the server dropped it. */
async function runFile(
  file: TestFile,
  target: ResolvedTarget,
  options: RunTestsOptions,
  told: (result: TestResult) => void,
): Promise<TestResult[]> {
  let seen: WireSeen | undefined;
  const listening: Listening = {
    watch() {
      const current: WireSeen = { notifications: [], errorCodes: [] };
      seen = current;
      return () => {
        seen = undefined;
        return current;
      };
    },
  };
  const received = (message: unknown) => {
    if (!seen || typeof message !== "object" || message === null) return;
    const m = message as { id?: unknown; method?: unknown; params?: unknown; error?: { code?: unknown } };
    if (typeof m.method === "string" && m.id === undefined)
      seen.notifications.push({ method: m.method, ...(m.params !== undefined && { params: m.params }) });
    else if (m.method === undefined && typeof m.error?.code === "number") seen.errorCodes.push(m.error.code);
  };

  // The answers the running test gives the server's requests: its own, else the file's.
  let answers: ClientAnswers = file.client ?? {};
  const all = [file.client, ...file.tests.map((t) => t.client)];
  const declares = (key: keyof ClientAnswers) => all.some((a) => a?.[key] !== undefined);
  const handlers: Partial<ClientOptions> = {
    ...(declares("elicitation") && {
      elicitation: () => (answers.elicitation ?? { action: "decline" }) as unknown as ElicitResult,
    }),
    ...(declares("sampling") && {
      sampling: () => {
        if (!answers.sampling) throw new Error("This test gives no answer to sampling (client.sampling)");
        return answers.sampling as unknown as CreateMessageResult;
      },
    }),
    ...(declares("roots") && { listRoots: () => (answers.roots ?? file.client?.roots ?? []) as Root[] }),
  };

  const wantsLogs = file.tests.some((t) =>
    t.expect.notifications?.some((n) => (typeof n === "string" ? n : n.method) === "notifications/message"),
  );

  const results: TestResult[] = [];
  let connected: Connected | undefined;
  // A server that cannot be reached fails the rest of its file for the same reason: no retry each time.
  let unreachable: string | undefined;
  try {
    for (const test of file.tests) {
      if (unreachable === undefined && !connected?.client.isConnected) {
        await connected?.close();
        connected = undefined;
        try {
          connected = await connectClient(target, {
            client: {
              ...handlers,
              ...(file.protocol && { protocolVersion: file.protocol }),
              timeoutMs: file.timeoutMs,
              validateToolOutput: false,
            },
            taps: { received },
            ...(options.inheritStderr && { inheritStderr: true }),
          });
          // A test that expects log messages asks for all of them (2026-07-28 servers send none unless asked).
          if (wantsLogs && connected.description.capabilities?.logging) await connected.client.setLogLevel("debug");
        } catch (error) {
          unreachable = (error as Error).message;
        }
      }
      answers = { ...file.client, ...test.client };
      const result = connected
        ? await runTest(connected.client, test, listening, file.timeoutMs)
        : { name: test.name, ok: false, ms: 0, failures: [unreachable as string] };
      results.push(result);
      told(result);
    }
  } finally {
    await connected?.close();
  }
  return results;
}
