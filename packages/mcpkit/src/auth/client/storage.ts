import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Where a client keeps what it learned: registered credentials (keyed by issuer, never
 * reused with another authorization server) and tokens (keyed by resource).
 */
export interface OAuthStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export function memoryStorage(): OAuthStorage {
  const values = new Map<string, unknown>();
  return {
    async get(key) {
      return values.get(key);
    },
    async set(key, value) {
      values.set(key, value);
    },
    async delete(key) {
      values.delete(key);
    },
  };
}

/**
 * A JSON file readable only by its owner (mode 0600), replaced atomically on each write.
 * Writes are serialized so concurrent updates are not lost.
 */
export function fileStorage(path: string): OAuthStorage {
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<Record<string, unknown>> => {
    try {
      return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  };
  const update = (change: (data: Record<string, unknown>) => void) => {
    const next = queue.then(async () => {
      const data = await read();
      change(data);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temp = `${path}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(data, null, 2), { mode: 0o600 });
      await chmod(temp, 0o600);
      await rename(temp, path);
    });
    queue = next.catch(() => {}); // the caller gets this write's failure from `next`; the queue goes on
    return next;
  };
  return {
    async get(key) {
      await queue;
      return (await read())[key];
    },
    async set(key, value) {
      await update((data) => {
        data[key] = value;
      });
    },
    async delete(key) {
      await update((data) => {
        delete data[key];
      });
    },
  };
}
