import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type { Implementation } from "../protocol/types/common.js";
import type { Keyed } from "./registry/feature-set.js";
import type { ServerSession } from "./server-session.js";

/** Who is looking at a list or calling by name: what a visibility rule may decide on. */
export interface Viewer {
  /** The verified token's subject (else its client id); undefined without authorization. */
  readonly principal: string | undefined;
  /** The verified token as the endpoint's verifier returned it. */
  readonly auth: unknown;
  /** The legacy session; undefined for a 2026-07-28 request, which stands alone. */
  readonly session: ServerSession | undefined;
  readonly clientInfo: Implementation | undefined;
  /** What the client declared (in initialize, or in this request's `_meta`). */
  readonly clientCapabilities: ClientCapabilities;
}

/**
 * Decides whether a tool, resource, template or prompt exists for a viewer. Hidden means
 * neither listed nor known when called by name. Keep it fast and pure: it runs for every
 * list, every call, and for every session when a list changes. A rule that throws hides.
 */
export type VisibilityRule = (viewer: Viewer) => boolean;

/** An entry that may carry a rule. */
export interface Showable extends Keyed {
  readonly visible?: VisibilityRule | undefined;
}

/** Whether `entry` exists for `viewer`: its rule, and the viewer's session's own disables. */
export function isShown(entry: Showable, viewer: Viewer): boolean {
  if (viewer.session?.isDisabled(entry.key)) return false;
  if (!entry.visible) return true;
  try {
    return entry.visible(viewer) === true;
  } catch {
    return false;
  }
}
