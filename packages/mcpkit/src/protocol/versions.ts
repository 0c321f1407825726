/**
 * The protocol revisions mcpkit speaks. This is the one place revisions are compared:
 * everything else asks `atLeast(revision, "2025-06-18")` or reads the revision table.
 */

export const STATEFUL_REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

export type StatefulRevision = (typeof STATEFUL_REVISIONS)[number];

export type Revision = StatefulRevision;

/** The newest revision that uses the `initialize` handshake. */
export const LATEST_STATEFUL_REVISION: StatefulRevision = "2025-11-25";

/** The revision assumed when an HTTP peer sends no version header (transports §Protocol Version Header). */
export const DEFAULT_NEGOTIATED_REVISION: StatefulRevision = "2025-03-26";

const order = new Map<string, number>(STATEFUL_REVISIONS.map((r, i) => [r, i]));

export function isSupportedRevision(version: unknown): version is Revision {
  return typeof version === "string" && order.has(version);
}

/**
 * basic/lifecycle §Version Negotiation: answer the client's revision when we support it,
 * otherwise the latest we support (the client then decides whether to go on).
 */
export function negotiate(requested: unknown, supported: readonly Revision[] = STATEFUL_REVISIONS): Revision {
  if (isSupportedRevision(requested) && supported.includes(requested)) return requested;
  return supported[supported.length - 1] ?? LATEST_STATEFUL_REVISION;
}

/** True when `revision` is `since` or newer. */
export function atLeast(revision: Revision, since: Revision): boolean {
  return (order.get(revision) ?? -1) >= (order.get(since) ?? Number.POSITIVE_INFINITY);
}
