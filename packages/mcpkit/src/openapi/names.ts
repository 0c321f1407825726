import type { HttpMethod } from "./document.js";

/** server/tools §Tool names: 1–128 of A–Z a–z 0–9 _ - . (the `/` allowed there is avoided: paths have it). */
const MAX = 64;

/** A tool name from an operationId, else from the method and path (`get_/pets/{id}` → `get_pets_id`). */
export function baseName(operationId: string | undefined, method: HttpMethod, path: string): string {
  const raw = operationId?.trim() || `${method}_${path}`;
  const cleaned = raw
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_.-]+|[_.-]+$/g, "");
  return (cleaned || method).slice(0, MAX);
}

/**
 * Gives each operation a unique name: the rename map first (by operationId, or by
 * `METHOD /path`), then the sanitised id; a clash gets `_2`, `_3`… in document order.
 */
export class ToolNames {
  private readonly taken = new Set<string>();

  constructor(private readonly renames: Readonly<Record<string, string>> = {}) {
    for (const [from, to] of Object.entries(renames))
      if (!/^[A-Za-z0-9_.-]{1,128}$/.test(to))
        throw new TypeError(`Rename of "${from}" to "${to}": tool names are 1–128 of A–Z a–z 0–9 _ - .`);
  }

  name(operationId: string | undefined, method: HttpMethod, path: string): string {
    const renamed =
      (operationId !== undefined ? this.renames[operationId] : undefined) ??
      this.renames[`${method.toUpperCase()} ${path}`];
    if (renamed !== undefined) {
      if (this.taken.has(renamed)) throw new TypeError(`Two operations are renamed to "${renamed}"`);
      this.taken.add(renamed);
      return renamed;
    }
    const base = baseName(operationId, method, path);
    let name = base;
    for (let n = 2; this.taken.has(name) || this.reserved(name); n++) name = `${base.slice(0, MAX - 4)}_${n}`;
    this.taken.add(name);
    return name;
  }

  /** A renamed operation keeps its name even if an earlier one would have taken it. */
  private reserved(name: string): boolean {
    return Object.values(this.renames).includes(name);
  }
}

/**
 * An argument name for a parameter: its own when it is a plain identifier-like name, else
 * sanitised (`page[size]` → `page_size`); model APIs accept only such property names.
 */
export function argumentName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "");
  return (cleaned || "param").slice(0, MAX);
}
