import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { DEFAULT_MIRROR_LIMITS, type MirrorLimits } from "./proxy-options.js";

/** Reading the upstream server's lists: bounded, and one reading per list at a time. */

/** One page of a list, asked for with the reading's signal (its time limit). */
export type PageFetch = (cursor: string | undefined, signal: AbortSignal) => Promise<object>;

/** The upstream's list is more than the proxy mirrors (`limit` names the option). */
export class MirrorLimitError extends McpError {
  constructor(what: string, detail: string, limit: keyof MirrorLimits) {
    super(
      ErrorCode.InternalError,
      `The upstream server's ${what} list is more than this proxy mirrors: ${detail} (the proxy's mirror.${limit} option)`,
      { reason: "mirror-limit", list: what, limit },
    );
    this.name = "MirrorLimitError";
  }
}

/** Every page of the list under `key` (tools, prompts…), within `limits`. */
export async function everyPage<T>(fetch: PageFetch, key: string, limits: MirrorLimits = {}): Promise<T[]> {
  const { maxPages, maxItems, maxBytes, timeoutMs } = { ...DEFAULT_MIRROR_LIMITS, ...limits };
  const signal = AbortSignal.timeout(timeoutMs);
  const items: T[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    let page: Record<string, unknown>;
    try {
      page = (await fetch(cursor, signal)) as Record<string, unknown>;
    } catch (error) {
      if (signal.aborted) throw new MirrorLimitError(key, `reading it took longer than ${timeoutMs} ms`, "timeoutMs");
      throw error;
    }
    const got = Array.isArray(page[key]) ? (page[key] as T[]) : [];
    bytes += Buffer.byteLength(JSON.stringify(got));
    if (bytes > maxBytes) throw new MirrorLimitError(key, `more than ${maxBytes} bytes`, "maxBytes");
    if (items.length + got.length > maxItems)
      throw new MirrorLimitError(key, `more than ${maxItems} items`, "maxItems");
    items.push(...got);
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    if (cursor === undefined) return items;
    if (seen.has(cursor)) throw new Error(`The upstream server repeated a ${key} cursor`);
    seen.add(cursor);
    if (pages >= maxPages) throw new MirrorLimitError(key, `more than ${maxPages} pages`, "maxPages");
  }
}

/**
 * `work` run so that calls made while it runs fold into one more run after it: a storm of
 * list_changed notifications costs two readings of the list, not one per notification.
 */
export function coalesced(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const run = (): Promise<void> => {
    if (!running) {
      running = work().finally(() => {
        running = undefined;
      });
      return running;
    }
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return run();
      });
    return queued;
  };
  return run;
}
