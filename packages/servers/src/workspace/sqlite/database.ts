import { resolve } from "node:path";
import { checkDatabase, createSqlEngine, type SqlEngine } from "./engine.js";
import type { Sqlite } from "./native.js";
import { createSampleDatabase } from "./sample.js";

/** The --db file, or the sample database in a temp directory (removed on close). */
export function openDatabase(
  { driver, module }: Sqlite,
  options: { db?: string; allowWrite: boolean; queryTimeoutMs: number; maxAnswerBytes: number },
): SqlEngine {
  const limits = {
    sqlite: { engine: driver.engine, ...(module !== undefined && { module }) },
    described: `SQLite ${driver.version} through ${driver.engine}`,
    timeoutMs: options.queryTimeoutMs,
    maxAnswerBytes: options.maxAnswerBytes,
  };
  if (options.db !== undefined) {
    const file = resolve(options.db);
    checkDatabase(driver, file, options.db);
    return createSqlEngine({ file, label: file, writable: options.allowWrite, ...limits });
  }
  const sample = createSampleDatabase(driver);
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
