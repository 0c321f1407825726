import type BetterSqlite3 from "better-sqlite3";

export type SqliteConstructor = typeof BetterSqlite3;

/** better-sqlite3, loaded: the constructor, and the module it came from (the SQLite child process loads the same). */
export interface Sqlite {
  Database: SqliteConstructor;
  /** A specifier or URL `import()` takes. */
  module: string;
}

/**
 * better-sqlite3, loaded on first use: it is an optional peer (a native module), so the
 * server must start without it, and only the SQL tools say why they cannot work. `module`
 * is where it is found: by default from this package; @mcpkit/cli gives its own copy's
 * URL (an optional dependency of the command, which npm may install where this package
 * cannot see it). Resolves to it, or to why SQLite cannot be used in this process: not
 * installed, or built for another Node.js (its binding then fails on first use).
 */
export async function loadSqlite(module = "better-sqlite3"): Promise<Sqlite | string> {
  let Database: SqliteConstructor;
  try {
    Database = ((await import(module)) as { default: SqliteConstructor }).default;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      return `SQLite is unavailable: better-sqlite3 is not installed (an optional dependency of @mcpkit/cli, an optional peer of @mcpkit/servers); install it with "npm install better-sqlite3"`;
    }
    return `SQLite is unavailable: better-sqlite3 does not load (${firstLine(error)})`;
  }
  try {
    new Database(":memory:").close();
    return { Database, module };
  } catch (error) {
    const message = firstLine(error);
    const why = /NODE_MODULE_VERSION|self-register/.test(message)
      ? "it was built for another Node.js version"
      : message;
    return `SQLite is unavailable: better-sqlite3 does not load on Node.js ${process.version} (${why}); run "npm rebuild better-sqlite3" with this Node.js`;
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
