import { type BetterSqliteConstructor, betterDriver } from "./better-driver.js";
import type { Driver, EngineName } from "./driver.js";
import { nodeDriver } from "./node-driver.js";

/** The engine the workspace runs SQL with, and how its query process loads the same. */
export interface Sqlite {
  driver: Driver;
  /** For better-sqlite3: a specifier or URL `import()` takes (the query process loads it from there). */
  module?: string;
}

/** How the query process loads the engine the server chose. */
export interface EngineChoice {
  engine: EngineName;
  module?: string;
}

/**
 * The SQLite engine for this process: Node's own node:sqlite where this Node.js has all
 * the workspace needs (22.16 and later 22.x, 24 and later), else better-sqlite3, loaded on
 * first use. better-sqlite3 is an optional peer (a native module), so the server must start
 * without it, and only the SQL tools say why they cannot work. `module` is where it is
 * found: by default from this package; @mcpkit/cli gives its own copy's URL (an optional
 * dependency of the command, which npm may install where this package cannot see it).
 * Resolves to the engine, or to why neither can be used in this process.
 */
export async function loadSqlite(module = "better-sqlite3"): Promise<Sqlite | string> {
  const builtIn = nodeDriver();
  if (typeof builtIn !== "string") return { driver: builtIn };
  const better = await loadBetterSqlite(module);
  if (typeof better !== "string") return better;
  return `SQLite is unavailable: ${builtIn}, and ${better}. For SQL, run on Node.js ^22.16 or >=24 (its node:sqlite), or install better-sqlite3 for this Node.js ("npm install better-sqlite3" in a project, "npm install --global better-sqlite3" beside a global mcpkit, or "npm rebuild better-sqlite3" where it is installed)`;
}

/** The driver an EngineChoice names (in the query process, on the same Node.js as the server). */
export async function loadEngine(choice: EngineChoice): Promise<Driver> {
  if (choice.engine === "node:sqlite") {
    const driver = nodeDriver();
    if (typeof driver === "string") throw new Error(driver);
    return driver;
  }
  const better = await loadBetterSqlite(choice.module ?? "better-sqlite3");
  if (typeof better === "string") throw new Error(better);
  return better.driver;
}

async function loadBetterSqlite(module: string): Promise<Sqlite | string> {
  let Database: BetterSqliteConstructor;
  try {
    Database = ((await import(module)) as { default: BetterSqliteConstructor }).default;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      return "better-sqlite3 is not installed (an optional dependency of @mcpkit/cli, an optional peer of @mcpkit/servers)";
    }
    return `better-sqlite3 does not load (${firstLine(error)})`;
  }
  try {
    return { driver: betterDriver(Database), module };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const why = /NODE_MODULE_VERSION|self-register/.test(message)
      ? `it was built for another Node.js (${/NODE_MODULE_VERSION \d+/.exec(message)?.[0] ?? "another ABI"})`
      : firstLine(error);
    return `better-sqlite3 does not load on Node.js ${process.version}: ${why}`;
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
