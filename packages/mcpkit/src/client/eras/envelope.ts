import type { JsonObject } from "../../jsonrpc/types.js";
import { META } from "../../protocol/meta.js";
import type { ClientCapabilities } from "../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../protocol/types/common.js";
import type { EraHost } from "./client-era.js";

/** What every 2026-07-28 request says about itself (basic/index §_meta, per-request protocol fields). */
export interface Envelope {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  /** server/utilities/logging: without it the server sends no notifications/message. */
  logLevel?: LogLevel;
}

/**
 * `params` with the envelope in `_meta`. The caller's own `_meta` keys (trace context,
 * extensions) are kept; the protocol's keys are ours and win. Never mutates `params`.
 */
export function withEnvelope(params: JsonObject | undefined, envelope: Envelope, extra?: JsonObject): JsonObject {
  const meta: JsonObject = { ...(params?._meta as JsonObject | undefined), ...extra };
  meta[META.protocolVersion] = envelope.protocolVersion;
  meta[META.clientCapabilities] = envelope.capabilities;
  meta[META.clientInfo] = envelope.clientInfo;
  if (envelope.logLevel !== undefined) meta[META.logLevel] = envelope.logLevel;
  return { ...params, _meta: meta };
}

/** `params` with extra `_meta` keys (trace context) for a request of the legacy era. */
export function withMeta(params: JsonObject | undefined, extra: JsonObject | undefined): JsonObject | undefined {
  if (!extra || Object.keys(extra).length === 0) return params;
  return { ...params, _meta: { ...(params?._meta as JsonObject | undefined), ...extra } };
}

/**
 * basic/index §_meta: the envelope this client sends a modern server. Without a log level
 * the server sends no logs (server/utilities/logging); a client that listens for them but
 * set no level gets every level, as legacy servers send logs until told otherwise, so the
 * same code sees the same logs in both eras.
 */
export function envelopeFor(host: EraHost, version: string, logLevel: LogLevel | undefined): Envelope {
  const envelope: Envelope = {
    protocolVersion: version,
    capabilities: host.capabilities(true),
    clientInfo: host.clientInfo,
  };
  const level = logLevel ?? (host.wantsLogs() ? "debug" : undefined);
  if (level !== undefined) envelope.logLevel = level;
  return envelope;
}
