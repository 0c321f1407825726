import { invalidParams } from "../../jsonrpc/errors.js";

/** What a list can hold: anything with a unique key and an enabled flag. */
export interface Keyed {
  readonly key: string;
  enabled: boolean;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * One registry for tools, prompts, resources and templates: sorted by key, so lists are
 * deterministic, and paged with opaque keyset cursors, so adding or removing items between
 * pages never repeats or skips the ones that stay (server/utilities/pagination).
 */
export class FeatureSet<T extends Keyed> {
  private readonly items = new Map<string, T>();
  private sorted: T[] | undefined;
  private readonly onChange: () => void;

  constructor(onChange: () => void) {
    this.onChange = onChange;
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): T | undefined {
    const item = this.items.get(key);
    return item?.enabled ? item : undefined;
  }

  /** Every item, enabled or not, in key order. */
  all(): T[] {
    return [...this.items.values()].sort(byKey);
  }

  enabled(): T[] {
    this.sorted ??= this.all().filter((item) => item.enabled);
    return this.sorted;
  }

  add(item: T, what: string): void {
    if (this.items.has(item.key)) throw new Error(`${what} "${item.key}" is already registered`);
    this.items.set(item.key, item);
    this.changed();
  }

  remove(key: string): boolean {
    const removed = this.items.delete(key);
    if (removed) this.changed();
    return removed;
  }

  /** Replaces the item under `oldKey` (a rename) or updates it in place. */
  replace(oldKey: string, item: T, what: string): void {
    if (oldKey !== item.key && this.items.has(item.key)) throw new Error(`${what} "${item.key}" is already registered`);
    this.items.delete(oldKey);
    this.items.set(item.key, item);
    this.changed();
  }

  changed(): void {
    this.sorted = undefined;
    this.onChange();
  }

  page(cursor: unknown, pageSize: number, keep?: (item: T) => boolean): Page<T> {
    const list = keep ? this.enabled().filter(keep) : this.enabled();
    let start = 0;
    if (cursor !== undefined) {
      const after = decodeCursor(cursor);
      start = firstAfter(list, after);
    }
    if (start === 0 && list.length <= pageSize) return { items: list };
    const items = list.slice(start, start + pageSize);
    const last = items[items.length - 1];
    return start + pageSize < list.length && last ? { items, nextCursor: encodeCursor(last.key) } : { items };
  }
}

const byKey = (a: Keyed, b: Keyed) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function firstAfter(list: Keyed[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as Keyed).key <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const CURSOR_PREFIX = "k1:";

function encodeCursor(key: string): string {
  return Buffer.from(CURSOR_PREFIX + key, "utf8").toString("base64url");
}

function decodeCursor(cursor: unknown): string {
  if (typeof cursor === "string" && /^[A-Za-z0-9_-]*$/.test(cursor)) {
    const text = Buffer.from(cursor, "base64url").toString("utf8");
    if (text.startsWith(CURSOR_PREFIX)) return text.slice(CURSOR_PREFIX.length);
  }
  throw invalidParams("Invalid cursor: pass back the nextCursor of a previous page unchanged");
}
