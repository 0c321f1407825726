import type { InboundRequest } from "../../connection/inbound-request.js";
import { runChain } from "../../connection/middleware-chain.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JsonObject } from "../../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../protocol/types/capabilities.js";
import type { LogLevel } from "../../protocol/types/common.js";
import type { LegacyRevision } from "../../protocol/versions.js";
import type { ClientPeer } from "../dispatch/client-peer.js";
import { shouldLog } from "../dispatch/request-context.js";
import { dispatch } from "../dispatch/table.js";
import { inboundRequest } from "../middleware/message-context.js";
import type { Registry } from "../registry/registry.js";
import { handshake } from "./handshake.js";

const NOTHING: ClientCapabilities = Object.freeze({});

/**
 * The client of a legacy request on a server that keeps no sessions (streamable-http
 * §Session Management makes sessions optional): nothing is known of it but the revision
 * its `MCP-Protocol-Version` header names. It declared no capabilities, and the server
 * cannot ask it anything: an answer would arrive on a POST no session ties to this one.
 */
class SessionlessPeer implements ClientPeer {
  readonly rules: RevisionRules;
  readonly sessionId = undefined;
  readonly session = undefined;
  readonly clientInfo = undefined;
  readonly clientCapabilities = NOTHING;
  readonly serverCapabilities: ServerCapabilities;
  logLevel: LogLevel | undefined;
  private readonly send: (method: string, params: object) => void;

  constructor(server: Registry, revision: LegacyRevision, send: (method: string, params: object) => void) {
    this.rules = revisionRules(revision);
    this.serverCapabilities = server.capabilities();
    this.send = send;
  }

  wantsLog(level: LogLevel): boolean {
    return shouldLog(level, this.logLevel);
  }

  ask(method: string): Promise<JsonObject> {
    return Promise.reject(
      new McpError(
        ErrorCode.InvalidRequest,
        `${method} cannot be sent: this server keeps no sessions, so a client's answer could not find its way back`,
      ),
    );
  }

  notify(method: string, params: object): void {
    this.send(method, params);
  }

  subscribe(): void {}
  unsubscribe(): void {}
}

/**
 * Serves one legacy request without a session: `initialize` is answered (and forgotten),
 * everything else is dispatched under `revision` as if that handshake had happened.
 */
export function serveSessionless(
  server: Registry,
  inbound: InboundRequest,
  revision: LegacyRevision,
  notify: (method: string, params: object) => void,
): object | Promise<object> {
  const chain = server.middleware;
  if (chain === undefined) return serveNow(server, inbound, revision, notify, inbound.params);
  const origin = {
    era: "legacy",
    revision,
    sessionId: undefined,
    session: undefined,
    client: undefined,
    server: server.info,
    transport: undefined,
  } as const;
  const ctx = inboundRequest(origin, inbound);
  return runChain(chain, ctx, (c) => serveNow(server, inbound, revision, notify, c.params));
}

function serveNow(
  server: Registry,
  inbound: InboundRequest,
  revision: LegacyRevision,
  notify: (method: string, params: object) => void,
  params: JsonObject | undefined,
): object | Promise<object> {
  if (inbound.method === "initialize") return handshake(server, params ?? {}).result;
  return dispatch(server, new SessionlessPeer(server, revision, notify), inbound, params);
}
