import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { WorkspaceError } from "../errors.js";
import type { QueryRequest, WorkerData, WorkerReply } from "./protocol.js";

/** Runs SQL on the worker thread, one request at a time, each within a time limit. */
export interface SqlEngine {
  /** What the database is, for descriptions: its path, or "the sample database". */
  readonly label: string;
  /** The database file (for the sample database, its temporary copy). */
  readonly file: string;
  readonly writable: boolean;
  run<T>(request: QueryRequest, signal?: AbortSignal): Promise<T>;
  close(): Promise<void>;
}

export interface EngineOptions {
  file: string;
  label: string;
  writable: boolean;
  timeoutMs: number;
}

/** Opens the file once here, read-only, so a wrong --db fails at startup with a clear message. */
export function checkDatabase(file: string, shown: string): void {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
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

export function createSqlEngine(options: EngineOptions): SqlEngine {
  let worker: Worker | undefined;
  let pending: Pending | undefined;
  let nextId = 1;
  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;

  const stop = (why: string) => {
    const current = pending;
    pending = undefined;
    void worker?.terminate();
    worker = undefined;
    current?.reject(new WorkspaceError(why));
  };

  const start = (): Worker => {
    const data: WorkerData = { file: options.file, writable: options.writable };
    const w = new Worker(new URL("./query-worker.js", import.meta.url), { workerData: data });
    w.unref();
    w.on("message", (reply: WorkerReply) => {
      if (!pending || reply.id !== pending.id) return;
      const current = pending;
      pending = undefined;
      if (reply.ok) current.resolve(reply.value);
      else current.reject(new WorkspaceError(reply.message));
    });
    w.on("error", (error) => {
      if (worker === w) stop(`The SQLite worker failed: ${error.message}`);
    });
    w.on("exit", () => {
      if (worker === w) stop("The SQLite worker stopped unexpectedly");
    });
    return w;
  };

  const exec = (request: QueryRequest, signal: AbortSignal | undefined) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(new WorkspaceError("The database is closed"));
      if (signal?.aborted) return reject(signal.reason);
      worker ??= start();
      const id = nextId++;
      const timer = setTimeout(
        () =>
          stop(
            `Refused: the statement ran longer than ${options.timeoutMs} ms and was stopped; add a LIMIT or a narrower WHERE`,
          ),
        options.timeoutMs,
      );
      // Cancelling the request ends the query too: the thread is the only handle on it.
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
      worker.postMessage({ id, request });
    });

  return {
    label: options.label,
    file: options.file,
    writable: options.writable,
    run<T>(request: QueryRequest, signal?: AbortSignal): Promise<T> {
      const result = tail.then(() => exec(request, signal));
      tail = result.catch(() => undefined);
      return result as Promise<T>;
    },
    async close() {
      closed = true;
      const w = worker;
      worker = undefined;
      pending?.reject(new WorkspaceError("The database is closed"));
      pending = undefined;
      await w?.terminate();
    },
  };
}
