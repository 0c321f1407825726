import { META } from "./meta.js";
import { isLegacyRevision } from "./versions.js";

/**
 * Which era a request belongs to (basic/versioning §Terminology). This is the one place
 * that decides it; stdio and HTTP both ask here.
 */
export type Era = "legacy" | "modern";

/**
 * basic/versioning §Backward Compatibility: a request whose `_meta` names a protocol
 * version is modern (served on its own); anything else, `initialize` included, is legacy.
 * On HTTP the `MCP-Protocol-Version` header counts too: a version that is not a legacy one
 * marks the request modern, so a modern request with a broken `_meta` still gets the
 * modern errors (transports/streamable-http §Server Validation).
 */
export function eraOf(params: Record<string, unknown> | undefined, versionHeader?: string | null): Era {
  if (versionHeader != null && !isLegacyRevision(versionHeader.trim())) return "modern";
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null && META.protocolVersion in meta ? "modern" : "legacy";
}
