import { resolve } from "node:path";
import { checkDatabase, createSqlEngine, type SqlEngine } from "./engine.js";
import { createSampleDatabase } from "./sample.js";

/** The --db file, or the sample database in a temp directory (removed on close). */
export function openDatabase(options: { db?: string; allowWrite: boolean; queryTimeoutMs: number }): SqlEngine {
  if (options.db !== undefined) {
    const file = resolve(options.db);
    checkDatabase(file, options.db);
    return createSqlEngine({ file, label: file, writable: options.allowWrite, timeoutMs: options.queryTimeoutMs });
  }
  const sample = createSampleDatabase();
  const engine = createSqlEngine({
    file: sample.file,
    label: "the built-in sample database (customers, products, orders)",
    writable: options.allowWrite,
    timeoutMs: options.queryTimeoutMs,
  });
  return {
    ...engine,
    async close() {
      await engine.close();
      sample.remove();
    },
  };
}
