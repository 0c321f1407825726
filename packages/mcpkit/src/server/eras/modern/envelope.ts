import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { META } from "../../../protocol/meta.js";
import type { ClientCapabilities } from "../../../protocol/types/capabilities.js";
import { type Implementation, LOG_LEVELS, type LogLevel } from "../../../protocol/types/common.js";
import { isModernRevision, type ModernRevision, newestFirst, type Revision } from "../../../protocol/versions.js";

/** What a modern request says about its client (basic/index §_meta, per-request protocol fields). */
export interface Envelope {
  version: ModernRevision;
  capabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LogLevel | undefined;
}

/**
 * basic/index §_meta: the request's envelope, its version one this server serves.
 * protocolVersion and clientCapabilities are required (-32602); the version must be a
 * modern one this server serves (-32022, listing what it supports).
 */
export function readEnvelope(params: JsonObject | undefined, served: readonly Revision[]): Envelope {
  const envelope = readEnvelopeShape(params);
  checkServedVersion(served, envelope.version);
  return envelope;
}

/** The envelope's shape alone (the HTTP endpoint checks its headers in between). */
export function readEnvelopeShape(params: JsonObject | undefined): Envelope {
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta with ${META.protocolVersion} and ${META.clientCapabilities} is required`,
    );
  }
  const version = meta[META.protocolVersion];
  if (typeof version !== "string") {
    throw new McpError(ErrorCode.InvalidParams, `Invalid params: _meta["${META.protocolVersion}"] is required`);
  }
  const capabilities = meta[META.clientCapabilities];
  if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta["${META.clientCapabilities}"] must be an object`,
    );
  }
  const level = meta[META.logLevel];
  if (level !== undefined && !LOG_LEVELS.includes(level as LogLevel)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta["${META.logLevel}"] must be one of ${LOG_LEVELS.join(", ")}`,
    );
  }
  return {
    version: version as ModernRevision,
    capabilities: capabilities as ClientCapabilities,
    clientInfo: meta[META.clientInfo] as Implementation | undefined,
    logLevel: level as LogLevel | undefined,
  };
}

/** -32022 unless `version` is a modern revision among `served`. */
export function checkServedVersion(served: readonly Revision[], version: string): void {
  if (!isModernRevision(version) || !served.includes(version)) throw unsupportedVersion(served, version);
}

/** basic/versioning §Protocol Version Negotiation: UnsupportedProtocolVersionError, listing what is served. */
export function unsupportedVersion(served: readonly Revision[], requested: string): McpError {
  return new McpError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
    supported: newestFirst(served),
    requested,
  });
}
