/**
 * The protocol revisions mcpkit speaks. This is the one place revisions are compared:
 * everything else asks `atLeast(revision, "2025-06-18")` or reads the revision table.
 */

/**
 * The two eras, in the words of basic/versioning §Terminology: **legacy** revisions open a
 * session with the `initialize` handshake; **modern** ones carry version, identity and
 * capabilities on every request.
 */
export const LEGACY_REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

export const MODERN_REVISIONS = ["2026-07-28"] as const;

export const REVISIONS = [...LEGACY_REVISIONS, ...MODERN_REVISIONS] as const;

export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];
export type ModernRevision = (typeof MODERN_REVISIONS)[number];
export type Revision = LegacyRevision | ModernRevision;

/** The newest revision that uses the `initialize` handshake. */
export const LATEST_LEGACY_REVISION: LegacyRevision = "2025-11-25";

/** The newest revision. */
export const LATEST_REVISION: ModernRevision = "2026-07-28";

/** The revision assumed when an HTTP peer sends no version header (transports §Protocol Version Header). */
export const DEFAULT_NEGOTIATED_REVISION: LegacyRevision = "2025-03-26";

const order = new Map<string, number>(REVISIONS.map((r, i) => [r, i]));

export function isSupportedRevision(version: unknown): version is Revision {
  return typeof version === "string" && order.has(version);
}

export function isLegacyRevision(version: unknown): version is LegacyRevision {
  return typeof version === "string" && (LEGACY_REVISIONS as readonly string[]).includes(version);
}

export function isModernRevision(version: unknown): version is ModernRevision {
  return typeof version === "string" && (MODERN_REVISIONS as readonly string[]).includes(version);
}

/**
 * basic/lifecycle §Version Negotiation: answer the client's revision when we support it,
 * otherwise the latest we support (the client then decides whether to go on). Only
 * handshake revisions can be negotiated this way: with none among `supported` (a server
 * of modern revisions only), undefined, and the `initialize` is refused.
 */
export function negotiate(
  requested: unknown,
  supported: readonly Revision[] = LEGACY_REVISIONS,
): LegacyRevision | undefined {
  const legacy = supported.filter(isLegacyRevision);
  if (isLegacyRevision(requested) && legacy.includes(requested)) return requested;
  return legacy[legacy.length - 1];
}

/** True when `revision` is `since` or newer. */
export function atLeast(revision: Revision, since: Revision): boolean {
  return (order.get(revision) ?? -1) >= (order.get(since) ?? Number.POSITIVE_INFINITY);
}

/** Newest first, as server/discover and UnsupportedProtocolVersionError list them. */
export const newestFirst = (revisions: readonly Revision[]): Revision[] => [...revisions].reverse();

/** @deprecated Use LEGACY_REVISIONS (basic/versioning calls these revisions legacy). */
export const STATEFUL_REVISIONS = LEGACY_REVISIONS;
/** @deprecated Use LegacyRevision. */
export type StatefulRevision = LegacyRevision;
/** @deprecated Use LATEST_LEGACY_REVISION. */
export const LATEST_STATEFUL_REVISION = LATEST_LEGACY_REVISION;
/** @deprecated Use isLegacyRevision. */
export const isStatefulRevision = isLegacyRevision;
