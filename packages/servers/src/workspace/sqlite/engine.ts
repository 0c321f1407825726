import { type ChildProcess, fork } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { WorkspaceError } from "../errors.js";
import type { Driver } from "./driver.js";
import type { EngineChoice } from "./native.js";
import type { ProcessData, ProcessReply, QueryRequest } from "./protocol.js";

/** Runs SQL in a child process, one request at a time, each within a time limit. */
export interface SqlEngine {
  /** What the database is, for descriptions: its path, or "the sample database". */
  readonly label: string;
  /** The database file (for the sample database, its temporary copy). */
  readonly file: string;
  readonly writable: boolean;
  /** Which engine runs the SQL, and SQLite's version in it: "SQLite 3.49.1 through node:sqlite". */
  readonly engine: string;
  run<T>(request: QueryRequest, signal?: AbortSignal): Promise<T>;
  close(): Promise<void>;
}

export interface EngineOptions {
  /** The engine the child loads (the one the server chose). */
  sqlite: EngineChoice;
  /** What `engine` says. */
  described: string;
  file: string;
  label: string;
  writable: boolean;
  timeoutMs: number;
  /** The most bytes of rows one answer carries. */
  maxAnswerBytes: number;
}

/** Opens the file once here, read-only, so a wrong --db fails at startup with a clear message. */
export function checkDatabase(driver: Driver, file: string, shown: string): void {
  // SQLite's own words for these ("unable to open database file", "disk I/O error") say neither what nor why.
  const found = statSync(file, { throwIfNoEntry: false });
  if (!found)
    throw new WorkspaceError(
      `--db ${shown}: no such file. Give the path of an existing SQLite database (none is created), or leave out --db for the sample database`,
    );
  if (found.isDirectory()) throw new WorkspaceError(`--db ${shown}: a directory, not a SQLite database file`);
  let db: ReturnType<Driver["open"]> | undefined;
  try {
    db = driver.open(file, { readOnly: true });
    db.prepare("SELECT count(*) FROM sqlite_schema").all();
  } catch (error) {
    throw new WorkspaceError(`--db ${shown}: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}

interface Pending {
  id: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const QUERY_PROCESS = fileURLToPath(new URL("./query-process.js", import.meta.url));

/**
 * SQLite's step loop is native and synchronous (neither engine has an interrupt, and
 * ending a worker thread does not stop it: the thread burns on), so statements run in a
 * child process, which a timeout or a cancellation kills outright: the CPU is free at
 * once, and the next statement starts a fresh process. The child never outlives this one.
 */
/** How long a fresh child may take to open the database and say it is ready. */
const START_TIMEOUT_MS = 15_000;

export function createSqlEngine(options: EngineOptions): SqlEngine {
  let child: ChildProcess | undefined;
  /** Settles once the current child has opened the database: the time limit starts then. */
  let ready: Promise<void> | undefined;
  let pending: Pending | undefined;
  let nextId = 1;
  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;

  const stop = (why: string) => {
    const current = pending;
    pending = undefined;
    child?.kill("SIGKILL");
    child = undefined;
    ready = undefined;
    current?.reject(new WorkspaceError(why));
  };

  /** Ends a child that may hold what a failed statement left behind; the next request starts a fresh one. */
  const retire = (c: ChildProcess) => {
    if (child !== c) return;
    child = undefined;
    ready = undefined;
    c.kill("SIGKILL");
  };

  const start = (): ChildProcess => {
    const data: ProcessData = {
      ...options.sqlite,
      file: options.file,
      writable: options.writable,
      maxAnswerBytes: options.maxAnswerBytes,
    };
    const c = fork(QUERY_PROCESS, [JSON.stringify(data)], {
      execArgv: [],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    // Neither the child nor its channel keeps this process alive; when this process
    // exits, the child goes too (and it watches for a parent that died without a word).
    c.unref();
    c.channel?.unref();
    const killOnExit = () => c.kill("SIGKILL");
    process.on("exit", killOnExit);
    ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new WorkspaceError("The SQLite process did not start in time")),
        START_TIMEOUT_MS,
      );
      const settle = (error?: Error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      c.once("message", (first: ProcessReply | { ready: true }) =>
        "ready" in first ? settle() : settle(new WorkspaceError("The SQLite process did not start")),
      );
      c.once("exit", (code, signal) =>
        settle(new WorkspaceError(`The SQLite process stopped while starting (${signal ?? `exit code ${code}`})`)),
      );
    });
    // A failed start is reported to the request that waits for it, never unhandled.
    ready.catch(() => undefined);
    c.on("message", (reply: ProcessReply | { ready: true }) => {
      if ("ready" in reply) return;
      if (c !== child || !pending || reply.id !== pending.id) return;
      const current = pending;
      pending = undefined;
      if (reply.ok) return current.resolve(reply.value);
      if (reply.retire) retire(c);
      current.reject(new WorkspaceError(reply.message));
    });
    c.on("error", (error) => {
      if (child === c) stop(`The SQLite process failed: ${error.message}`);
    });
    c.on("exit", (code, signal) => {
      process.off("exit", killOnExit);
      if (child === c) stop(`The SQLite process stopped unexpectedly (${signal ?? `exit code ${code}`})`);
    });
    return c;
  };

  /** A child ready to take a statement: the current one, or a fresh one once it has started. */
  const ensureStarted = async (): Promise<ChildProcess> => {
    child ??= start();
    const current = child;
    try {
      await ready;
    } catch (error) {
      if (child === current) stop((error as Error).message);
      throw error;
    }
    return current;
  };

  const exec = async (request: QueryRequest, signal: AbortSignal | undefined): Promise<unknown> => {
    if (closed) throw new WorkspaceError("The database is closed");
    const c = await ensureStarted();
    return new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(new WorkspaceError("The database is closed"));
      if (signal?.aborted) return reject(signal.reason);
      if (c !== child) return reject(new WorkspaceError("The SQLite process stopped; try again"));
      const id = nextId++;
      const timer = setTimeout(
        () =>
          stop(
            `Refused: the statement ran longer than ${options.timeoutMs} ms and was stopped; add a LIMIT or a narrower WHERE`,
          ),
        options.timeoutMs,
      );
      // Cancelling the request ends the query too: the process is the only handle on it.
      const onAbort = () => stop("The query was cancelled");
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      pending = {
        id,
        resolve: (value) => {
          settle();
          resolve(value);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      c.send({ id, request });
    });
  };

  return {
    label: options.label,
    file: options.file,
    writable: options.writable,
    engine: options.described,
    run<T>(request: QueryRequest, signal?: AbortSignal): Promise<T> {
      const result = tail.then(() => exec(request, signal));
      tail = result.catch(() => undefined);
      return result as Promise<T>;
    },
    async close() {
      closed = true;
      const c = child;
      child = undefined;
      ready = undefined;
      pending?.reject(new WorkspaceError("The database is closed"));
      pending = undefined;
      if (c && c.exitCode === null && c.signalCode === null) {
        const exited = new Promise((resolve) => c.once("exit", resolve));
        // Unreferenced, its exit would not keep this process alive to see it: whatever waits
        // on close (removing the sample database) would never run.
        c.ref();
        c.kill("SIGKILL");
        await exited;
      }
    },
  };
}
