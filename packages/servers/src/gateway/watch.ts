import { type FSWatcher, readFileSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { ConfigDiff } from "./config/diff.js";
import { fileAccessProblem } from "./config/file-access.js";
import { readGatewayConfig } from "./config/read.js";
import type { Gateway } from "./gateway.js";

/** A watch of the gateway's configuration file (watchConfig). */
export interface ConfigWatch {
  /** Resolves when the reload under way (if any) is done: for tests and shutdown. */
  settled(): Promise<void>;
  /** Stops watching; a reload under way still finishes. */
  close(): void;
}

/** What watchConfig tells of each change of the file, and how it reads it. */
export interface WatchOptions {
  /** A reload was applied. */
  onReload(diff: ConfigDiff): void;
  /** An edit was refused (a GatewayConfigError lists each mistake with its line and column): the last good configuration keeps serving. */
  onRefused(error: Error): void;
  /** The environment `${VAR}` reads at each reload (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** How long the file must stay unchanged before it is read (an editor writes in steps; default 100 ms). */
  settleMs?: number;
}

/**
 * Watches the gateway's configuration file and reloads the gateway when it changes: a new
 * text that reads and checks is applied (upstreams added, removed and changed while
 * serving; calls in flight finish); one that does not is refused, and the configuration
 * that was serving goes on. The folder is watched, not the file: editors replace a file
 * by renaming another over it, which ends a watch on the file itself.
 */
export function watchConfig(gateway: Gateway, options: WatchOptions): ConfigWatch {
  const file = gateway.config.file;
  const settleMs = options.settleMs ?? 100;
  let lastText = safeRead(file);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const reload = async () => {
    const text = safeRead(file);
    // Unchanged (a touch, an editor's second event), or gone for a moment while replaced.
    if (text === undefined || text === lastText) return;
    lastText = text;
    let config: ReturnType<typeof readGatewayConfig>;
    try {
      const access = fileAccessProblem(file);
      if (access) throw new Error(access);
      config = readGatewayConfig(text, { file, ...(options.env && { env: options.env }) });
    } catch (error) {
      options.onRefused(error as Error);
      return;
    }
    options.onReload(await gateway.reload(config));
  };
  const changed = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(reload).catch((error: unknown) => options.onRefused(error as Error));
    }, settleMs);
  };
  const watcher: FSWatcher = watch(dirname(file), (_event, name) => {
    if (name === null || name === basename(file)) changed();
  });
  watcher.on("error", (error) => options.onRefused(error));
  return {
    settled: () => running,
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}

function safeRead(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
