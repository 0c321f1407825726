import type { ListKind } from "../../events.js";
import type { Registry } from "../../registry/registry.js";
import type { ServerSession } from "../../server-session.js";
import { LIST_KINDS, SeenViews } from "../../views.js";
import type { Viewer } from "../../visibility.js";

/**
 * What one legacy session may see: the names it disabled (session.disable), and what it
 * was last shown of each list where visibility rules or those disables make it differ from
 * the full list, so its client is told of a list change only when its own view changed.
 * A session makes it on first need: one on a server without visibility rules has none.
 */
export class SessionViews {
  private disabledNames: Set<string> | undefined;
  private readonly seen: SeenViews;

  constructor(server: Registry, session: ServerSession, viewer: () => Viewer) {
    this.seen = new SeenViews(server, session, viewer);
  }

  get hasDisabled(): boolean {
    return (this.disabledNames?.size ?? 0) > 0;
  }

  isDisabled(name: string): boolean {
    return this.disabledNames?.has(name) ?? false;
  }

  /** After the handshake: notes what the client is about to list, to compare later changes with. */
  noteInitial(): void {
    this.seen.noteDiffering();
  }

  /** Whether what the session sees of `kind` changed since last noted (and notes it). */
  changed(kind: ListKind): boolean {
    return this.seen.changed(kind);
  }

  /**
   * Hides (`disable`) or shows again a name; `notify` is told of each list, to tell the
   * client where its view changed. Before the handshake nothing was listed: nothing is noted.
   */
  change(name: string, disable: boolean, initialized: boolean, notify: (kind: ListKind) => void): void {
    if (initialized) for (const kind of LIST_KINDS) this.seen.note(kind);
    if (disable) {
      this.disabledNames ??= new Set();
      this.disabledNames.add(name);
    } else this.disabledNames?.delete(name);
    if (initialized) for (const kind of LIST_KINDS) notify(kind);
  }
}
