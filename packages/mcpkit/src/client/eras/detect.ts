import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import type { DiscoverResult } from "../../protocol/types/modern.js";
import {
  isLegacyRevision,
  isModernRevision,
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  type ModernRevision,
  type Revision,
} from "../../protocol/versions.js";

/**
 * basic/versioning §Backward Compatibility with Initialization-Based Versions: which era
 * a server speaks, found by a `server/discover` probe.
 */

export type EraDecision =
  | { era: "modern"; version: ModernRevision; discover: DiscoverResult }
  /** `version`: the one to ask for in initialize (the server may answer with another). */
  | { era: "legacy"; version: string };

export interface DetectOptions {
  /** Streamable HTTP (era told by status and body) rather than a message channel such as stdio. */
  http: boolean;
  /** A revision the user insists on: a modern one never falls back, a stateful one never probes. */
  forced?: Revision;
  /** Sends `server/discover` naming `version`; rejects as the connection does. */
  probe(version: ModernRevision): Promise<JsonObject>;
  /** Whether the connection itself is gone (then nothing is a verdict about the server). */
  isClosed(): boolean;
}

/** Tries with another version after -32022 at most this many times. */
const MAX_VERSION_RETRIES = 2;

/** The JSON-RPC error behind a failure, with the HTTP status it came with, if any. */
export function rpcError(error: unknown): { code: number; data: unknown; status?: number } | undefined {
  if (!(error instanceof McpError)) return undefined;
  if (error.httpStatus !== undefined) return { code: error.code, data: error.data, status: error.httpStatus };
  const data = error.data as
    | { reason?: unknown; status?: unknown; error?: { code: number; data?: unknown } }
    | undefined;
  if (data?.reason === "http-error") {
    const status = typeof data.status === "number" ? data.status : undefined;
    return data.error ? { code: data.error.code, data: data.error.data, status } : { code: Number.NaN, data, status };
  }
  // Failures of the transport itself, not answers of the server.
  if (typeof data?.reason === "string") return undefined;
  return { code: error.code, data: error.data };
}

/** The versions an UnsupportedProtocolVersionError (-32022) lists, if it is one. */
export function supportedFrom(error: unknown): string[] | undefined {
  const rpc = rpcError(error);
  const supported = (rpc?.data as { supported?: unknown } | undefined)?.supported;
  return rpc?.code === ErrorCode.UnsupportedProtocolVersion && Array.isArray(supported)
    ? supported.filter((v): v is string => typeof v === "string")
    : undefined;
}

/**
 * The newest version both sides speak: a modern one first (this client prefers them),
 * else the newest shared stateful one. `forced` allows only itself.
 */
export function chooseVersion(offered: readonly string[], forced?: Revision): Revision | undefined {
  if (forced) return offered.includes(forced) ? forced : undefined;
  const modern = [...MODERN_REVISIONS].reverse().find((v) => offered.includes(v));
  return modern ?? [...LEGACY_REVISIONS].reverse().find((v) => offered.includes(v));
}

const isDiscoverResult = (value: JsonObject): value is JsonObject & DiscoverResult =>
  Array.isArray(value.supportedVersions) &&
  typeof value.capabilities === "object" &&
  value.capabilities !== null &&
  (value.resultType === undefined || value.resultType === "complete");

/**
 * What a failed probe says about the server. "legacy": an old server (fall back to
 * initialize). "modern": a new server that refused the request; falling back would be
 * wrong. "unknown": the failure says nothing about the server (it could not be reached).
 */
function verdict(error: unknown, http: boolean): "legacy" | "modern" | "unknown" {
  if (!(error instanceof McpError)) return "unknown";
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  const rpc = rpcError(error);
  const modernCodes: number[] = [
    ErrorCode.HeaderMismatch,
    ErrorCode.MissingRequiredClientCapability,
    ErrorCode.UnsupportedProtocolVersion,
  ];
  if (!http) {
    // transports/stdio §Backward Compatibility: any other error, or silence, means legacy;
    // the fallback must not depend on one code (legacy servers use -32601, -32602, ...).
    return rpc && !modernCodes.includes(rpc.code) ? "legacy" : rpc ? "modern" : "unknown";
  }
  // A server that cannot be reached, does not answer, or that this client could not get
  // authorized for, is no older for it (and asking again would repeat the authorization).
  if (reason === "network-error" || reason === "authorization-failed" || error.code === ErrorCode.RequestTimeout)
    return "unknown";
  if (rpc?.status !== undefined) {
    // transports/streamable-http §Backward Compatibility: a 400 carrying a modern error is
    // a modern server (-32602 with 400 is what one says about a malformed _meta).
    if (rpc.status === 400 && [...modernCodes, ErrorCode.InvalidParams].includes(rpc.code)) return "modern";
    // Any other status without a modern error: the old server's own answer to a request it
    // does not know (4xx by the spec; some answer 5xx). The initialize that follows
    // reports the real problem if there is one.
    return "legacy";
  }
  if (rpc) return modernCodes.includes(rpc.code) ? "modern" : "legacy";
  // An answer that breaks the transport's rules (an SSE stream without a response, a body
  // that is not JSON): not a modern server's answer to server/discover.
  return "legacy";
}

/**
 * Probes with `server/discover` in this client's preferred modern revision. A
 * DiscoverResult means modern; -32022 means modern in another version (retry with one
 * from its `supported` list, or fall back to initialize if only stateful ones match); any
 * other modern error is thrown; an error of an old server (HTTP: a 4xx without a modern
 * error; stdio: any error or a timeout) means legacy.
 */
export async function detectEra(options: DetectOptions): Promise<EraDecision> {
  const { forced } = options;
  // A handshake revision, or one this client does not know, is asked for in initialize
  // (basic/lifecycle §Version Negotiation lets the server answer with another).
  if (forced !== undefined && !isModernRevision(forced)) return { era: "legacy", version: forced };
  let version: ModernRevision = forced && isModernRevision(forced) ? forced : LATEST_REVISION;
  const legacy = (why: string, cause?: unknown): EraDecision => {
    if (forced)
      throw new McpError(ErrorCode.InvalidRequest, `The server does not speak protocol revision ${forced}: ${why}`, {
        cause: cause instanceof Error ? cause.message : cause,
      });
    return { era: "legacy", version: LATEST_LEGACY_REVISION };
  };
  for (let attempt = 0; ; attempt++) {
    let result: JsonObject;
    try {
      result = await options.probe(version);
    } catch (error) {
      if (options.isClosed()) throw error;
      const supported = supportedFrom(error);
      if (supported && attempt < MAX_VERSION_RETRIES) {
        const chosen = chooseVersion(supported, forced);
        if (isModernRevision(chosen)) {
          version = chosen;
          continue;
        }
        if (isLegacyRevision(chosen)) return { era: "legacy", version: chosen };
        throw new McpError(
          ErrorCode.UnsupportedProtocolVersion,
          `The server supports protocol revisions ${supported.join(", ") || "(none listed)"}, none of which this client speaks`,
          { supported },
        );
      }
      const kind = verdict(error, options.http);
      if (kind === "legacy") return legacy("it answered server/discover like a server of an older revision", error);
      throw error;
    }
    if (!isDiscoverResult(result)) return legacy("its answer to server/discover is not a DiscoverResult");
    const offered = result.supportedVersions.filter((v): v is string => typeof v === "string");
    const chosen = offered.includes(version) ? version : chooseVersion(offered, forced);
    if (isModernRevision(chosen)) return { era: "modern", version: chosen, discover: result };
    if (isLegacyRevision(chosen)) return { era: "legacy", version: chosen };
    throw new McpError(
      ErrorCode.UnsupportedProtocolVersion,
      `The server supports protocol revisions ${offered.join(", ") || "(none listed)"}, none of which this client speaks`,
      { supported: offered },
    );
  }
}
