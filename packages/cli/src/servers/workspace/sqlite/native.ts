import Database from "better-sqlite3";

/**
 * Why SQLite cannot be used in this process, or undefined when it can. better-sqlite3 is a
 * native module built for the Node.js that installed it; under another major version its
 * binding fails to load on first use, and the rest of the server should still work.
 */
export function sqliteUnavailable(): string | undefined {
  try {
    new Database(":memory:").close();
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    const why = /NODE_MODULE_VERSION|self-register/.test(message)
      ? "it was built for another Node.js version"
      : (message.split("\n")[0] ?? message);
    return `SQLite is unavailable: better-sqlite3 does not load on Node.js ${process.version} (${why}); run "npm rebuild better-sqlite3" with this Node.js`;
  }
}
