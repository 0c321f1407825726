import { resolve } from "node:path";
import { checkDatabase, createSqlEngine, type SqlEngine } from "./engine.js";
import type { Sqlite } from "./native.js";
import { createSampleDatabase } from "./sample.js";

/** The --db file, or the sample database in a temp directory (removed on close). */
export function openDatabase(
  { Database, module }: Sqlite,
  options: { db?: string; allowWrite: boolean; queryTimeoutMs: number; maxAnswerBytes: number },
): SqlEngine {
  const limits = { sqlite: module, timeoutMs: options.queryTimeoutMs, maxAnswerBytes: options.maxAnswerBytes };
  if (options.db !== undefined) {
    const file = resolve(options.db);
    checkDatabase(Database, file, options.db);
    return createSqlEngine({ file, label: file, writable: options.allowWrite, ...limits });
  }
  const sample = createSampleDatabase(Database);
  const engine = createSqlEngine({
    file: sample.file,
    label: "the built-in sample database (customers, products, orders)",
    writable: options.allowWrite,
    ...limits,
  });
  return {
    ...engine,
    async close() {
      await engine.close();
      sample.remove();
    },
  };
}
