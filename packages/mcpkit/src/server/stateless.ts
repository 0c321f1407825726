import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { META } from "../protocol/meta.js";
import { type RevisionRules, revisionRules } from "../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types/capabilities.js";
import { type Implementation, LOG_LEVELS, type LogLevel } from "../protocol/types/common.js";
import { isModernRevision, type ModernRevision } from "../protocol/versions.js";
import type { RequestOptions } from "../session/connection.js";
import type { InboundRequest } from "../session/inbound.js";
import { shouldLog } from "./context.js";
import { dispatch } from "./dispatch.js";
import { cacheFields, isCacheable } from "./handlers/caching.js";
import { Rounds } from "./mrtr/rounds.js";
import type { ClientPeer } from "./peer.js";
import type { McpServer } from "./server.js";

/**
 * The stateless era adapter (2026-07-28): each request carries its revision and the
 * client's capabilities in `_meta`, is served on its own against the same definition as
 * the stateful era, and gets `resultType` and `serverInfo` on its result. Requests to the
 * client become input requests of a multi round-trip request.
 */

/** A request in the modern shape: its `_meta` names a protocol version. */
export function isModernRequest(params: JsonObject | undefined): boolean {
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null && META.protocolVersion in meta;
}

export interface Envelope {
  version: ModernRevision;
  capabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LogLevel | undefined;
}

/**
 * basic/index §_meta: protocolVersion and clientCapabilities are required (-32602), and
 * the version must be one this server serves statelessly (-32022, listing what it supports).
 */
/** basic/index §_meta: the request's envelope, its version one this server serves. */
export function readEnvelope(params: JsonObject | undefined, server: McpServer): Envelope {
  const envelope = readEnvelopeShape(params);
  checkServedVersion(server, envelope.version);
  return envelope;
}

/** The envelope's shape alone (the HTTP path checks its headers in between). */
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

/** -32022 unless `version` is a 2026-era revision this server serves. */
export function checkServedVersion(server: McpServer, version: string): void {
  if (!isModernRevision(version) || !server.revisions.includes(version)) throw unsupportedVersion(server, version);
}

export function unsupportedVersion(server: McpServer, requested: string): McpError {
  return new McpError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
    supported: supportedVersions(server),
    requested,
  });
}

/** Newest first, as server/discover lists them. */
export const supportedVersions = (server: McpServer) => [...server.revisions].reverse();

/** The client as a stateless request describes it. */
class RequestPeer implements ClientPeer {
  readonly rules: RevisionRules;
  readonly sessionId = undefined;
  readonly session = undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly serverCapabilities: ServerCapabilities;
  logLevel: LogLevel | undefined;
  private readonly rounds: Rounds | undefined;
  private readonly method: string;
  private readonly send: (method: string, params: JsonObject) => void;

  constructor(
    server: McpServer,
    envelope: Envelope,
    method: string,
    rounds: Rounds | undefined,
    send: (method: string, params: JsonObject) => void,
  ) {
    this.rules = revisionRules(envelope.version);
    this.clientInfo = envelope.clientInfo;
    this.clientCapabilities = envelope.capabilities;
    this.serverCapabilities = server.capabilities();
    this.logLevel = envelope.logLevel;
    this.method = method;
    this.rounds = rounds;
    this.send = send;
  }

  /** server/utilities/logging (2026-07-28): nothing unless the request asked for a level. */
  wantsLog(level: LogLevel): boolean {
    return this.logLevel !== undefined && shouldLog(level, this.logLevel);
  }

  request(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    if (!this.rounds) {
      // basic/patterns/mrtr §Supported Requests: only these three may ask the client.
      return Promise.reject(
        new McpError(
          ErrorCode.InvalidRequest,
          `${method} is not available while answering ${this.method}: only tools/call, prompts/get and resources/read can ask the client for input`,
        ),
      );
    }
    return this.rounds.input(method, params, options?.inputKey);
  }

  notify(method: string, params: JsonObject): void {
    this.send(method, params);
  }

  subscribe(): void {}
  unsubscribe(): void {}
}

const MRTR_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

/**
 * Serves one modern request. `notify` delivers what the handler sends before its result
 * (progress, logs, subscription notifications) on the request's own channel.
 */
export async function serveModern(
  server: McpServer,
  inbound: InboundRequest,
  notify: (method: string, params: JsonObject, relatedRequestId: RequestId) => void,
): Promise<JsonObject> {
  const envelope = readEnvelope(inbound.params, server);
  const rounds = MRTR_METHODS.has(inbound.method) ? Rounds.open(server, inbound) : undefined;
  const peer = new RequestPeer(server, envelope, inbound.method, rounds, (method, params) =>
    notify(method, params, inbound.id),
  );
  const work = Promise.resolve().then(() => dispatch(server, peer, inbound));
  const outcome = rounds ? await Promise.race([work, rounds.suspended]) : await work;
  if (outcome === Rounds.SUSPENDED && rounds) {
    // The handler waits for answers the client has not given: end this round here.
    work.catch(() => {});
    inbound.abandon(new Error("Waiting for the client's input (multi round-trip request)"));
    return withServerInfo(server, rounds.inputRequired() as unknown as JsonObject);
  }
  return complete(server, inbound.method, outcome as JsonObject);
}

function withServerInfo(server: McpServer, result: JsonObject): JsonObject {
  const meta = (result._meta as JsonObject | undefined) ?? {};
  return { ...result, _meta: { ...meta, [META.serverInfo]: server.info } };
}

/** basic/index §Result: resultType on every result; caching hints where the method is cacheable. */
function complete(server: McpServer, method: string, result: JsonObject): JsonObject {
  const done: JsonObject = { resultType: "complete", ...withServerInfo(server, result) };
  if (isCacheable(method) && done.ttlMs === undefined) Object.assign(done, cacheFields(server, method));
  return done;
}
