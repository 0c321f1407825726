import type { ListKind } from "./events.js";
import type { Registry } from "./registry/registry.js";
import type { ServerSession } from "./server-session.js";
import { isShown, type Showable, type Viewer } from "./visibility.js";

const ruled = new WeakMap<readonly Showable[], boolean>();

/** Whether any of `entries` has a rule (remembered per list: enabled() is cached until a change). */
function anyRule(entries: readonly Showable[]): boolean {
  let known = ruled.get(entries);
  if (known === undefined) {
    known = entries.some((e) => e.visible !== undefined);
    ruled.set(entries, known);
  }
  return known;
}

function listsOf(server: Registry, kind: ListKind): (readonly Showable[])[] {
  if (kind === "tools") return [server.tools.enabled()];
  if (kind === "prompts") return [server.prompts.enabled()];
  return [server.resources.enabled(), server.templates.enabled()];
}

/** Whether a viewer's lists of `kind` can differ from the full ones (cheap: no viewer is made). */
export function viewsDiffer(server: Registry, kind: ListKind, session: ServerSession | undefined): boolean {
  return session?.hasDisabled === true || listsOf(server, kind).some(anyRule);
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/**
 * A short fingerprint of what `viewer` sees of `kind`: equal fingerprints, same view. Two
 * 32-bit FNV-1a hashes over the shown entries' identities (an entry replaced is a new
 * identity), so a session remembers a few characters, not its list.
 */
export function viewFingerprint(server: Registry, kind: ListKind, viewer: Viewer): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const list of listsOf(server, kind)) {
    for (const entry of list) {
      if (!isShown(entry, viewer)) continue;
      let id = ids.get(entry);
      if (id === undefined) {
        id = nextId++;
        ids.set(entry, id);
      }
      a = Math.imul(a ^ id, 0x01000193) >>> 0;
      b = Math.imul(b ^ (id * 31 + 7), 0x811c9dc5 | 1) >>> 0;
    }
    a = Math.imul(a ^ 0xff, 0x01000193) >>> 0;
  }
  return `${a.toString(36)}.${b.toString(36)}`;
}

export const LIST_KINDS: readonly ListKind[] = ["tools", "prompts", "resources"];

/**
 * What one session (or one listen stream) last saw of each list, as fingerprints: its
 * client is told of a list change only when its own view changed.
 */
export class SeenViews {
  private readonly seen: Partial<Record<ListKind, string>> = {};

  constructor(
    private readonly server: Registry,
    private readonly session: ServerSession | undefined,
    private readonly viewer: () => Viewer,
  ) {}

  /** Notes what is seen now of `kind`. */
  note(kind: ListKind): void {
    this.seen[kind] = viewFingerprint(this.server, kind, this.viewer());
  }

  /** Notes every list whose view can differ from the full one (the others need no memory). */
  noteDiffering(): void {
    for (const kind of LIST_KINDS) if (viewsDiffer(this.server, kind, this.session)) this.note(kind);
  }

  /** Whether the view of `kind` changed since noted (and notes it); true where it cannot differ from the full list. */
  changed(kind: ListKind): boolean {
    if (!viewsDiffer(this.server, kind, this.session)) {
      delete this.seen[kind];
      return true;
    }
    const before = this.seen[kind];
    this.note(kind);
    return before !== this.seen[kind];
  }
}
