/**
 * The protocol revisions mcpkit speaks. This is the one place revisions are compared:
 * everything else asks `atLeast(revision, "2025-06-18")` or reads the revision table.
 */

/** Revisions that open with the `initialize` handshake ("legacy" in basic/versioning). */
export const STATEFUL_REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

/** Revisions that carry version and capabilities on every request ("modern"). */
export const MODERN_REVISIONS = ["2026-07-28"] as const;

export const REVISIONS = [...STATEFUL_REVISIONS, ...MODERN_REVISIONS] as const;

export type StatefulRevision = (typeof STATEFUL_REVISIONS)[number];
export type ModernRevision = (typeof MODERN_REVISIONS)[number];
export type Revision = StatefulRevision | ModernRevision;

/** The newest revision that uses the `initialize` handshake. */
export const LATEST_STATEFUL_REVISION: StatefulRevision = "2025-11-25";

/** The newest revision. */
export const LATEST_REVISION: ModernRevision = "2026-07-28";

/** The revision assumed when an HTTP peer sends no version header (transports §Protocol Version Header). */
export const DEFAULT_NEGOTIATED_REVISION: StatefulRevision = "2025-03-26";

const order = new Map<string, number>(REVISIONS.map((r, i) => [r, i]));

export function isSupportedRevision(version: unknown): version is Revision {
  return typeof version === "string" && order.has(version);
}

export function isStatefulRevision(version: unknown): version is StatefulRevision {
  return typeof version === "string" && (STATEFUL_REVISIONS as readonly string[]).includes(version);
}

export function isModernRevision(version: unknown): version is ModernRevision {
  return typeof version === "string" && (MODERN_REVISIONS as readonly string[]).includes(version);
}

/**
 * basic/lifecycle §Version Negotiation: answer the client's revision when we support it,
 * otherwise the latest we support (the client then decides whether to go on). Only
 * handshake revisions can be negotiated this way.
 */
export function negotiate(requested: unknown, supported: readonly Revision[] = STATEFUL_REVISIONS): StatefulRevision {
  const stateful = supported.filter(isStatefulRevision);
  if (isStatefulRevision(requested) && stateful.includes(requested)) return requested;
  return stateful[stateful.length - 1] ?? LATEST_STATEFUL_REVISION;
}

/** True when `revision` is `since` or newer. */
export function atLeast(revision: Revision, since: Revision): boolean {
  return (order.get(revision) ?? -1) >= (order.get(since) ?? Number.POSITIVE_INFINITY);
}
