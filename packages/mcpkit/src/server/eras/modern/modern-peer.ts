import type { RequestOptions } from "../../../connection/connection-options.js";
import type { InboundRequest } from "../../../connection/inbound-request.js";
import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { INPUT_METHODS } from "../../../protocol/methods.js";
import { type RevisionRules, revisionRules } from "../../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../../protocol/types/common.js";
import type { ClientPeer } from "../../dispatch/client-peer.js";
import { shouldLog } from "../../dispatch/request-context.js";
import type { Registry } from "../../registry/registry.js";
import type { Envelope } from "./envelope.js";
import { Rounds } from "./rounds.js";

/**
 * The client as one modern request describes it: its `_meta` envelope. Requests to the
 * client become input requests of the multi round-trip request (`rounds`), which only
 * the methods in INPUT_METHODS may make. A first round's Rounds is made when the handler
 * first asks (most never do); a retry's is made before, to check what it brings.
 */
export class ModernPeer implements ClientPeer {
  readonly rules: RevisionRules;
  readonly sessionId = undefined;
  readonly session = undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly serverCapabilities: ServerCapabilities;
  logLevel: LogLevel | undefined;
  private opened: Rounds | undefined;
  private readonly inputAllowed: boolean;
  private readonly server: Registry;
  private readonly inbound: InboundRequest;
  private readonly send: (method: string, params: object) => void;

  constructor(
    server: Registry,
    envelope: Envelope,
    inbound: InboundRequest,
    rounds: Rounds | undefined,
    send: (method: string, params: object) => void,
  ) {
    this.rules = revisionRules(envelope.version);
    this.clientInfo = envelope.clientInfo;
    this.clientCapabilities = envelope.capabilities;
    this.serverCapabilities = server.capabilities();
    this.logLevel = envelope.logLevel;
    this.server = server;
    this.inbound = inbound;
    this.inputAllowed = INPUT_METHODS.has(inbound.method);
    this.opened = rounds;
    this.send = send;
  }

  /** This request's rounds, if it may ask the client for input: opened when first needed. */
  get rounds(): Rounds | undefined {
    if (this.opened === undefined && this.inputAllowed) this.opened = Rounds.fresh(this.server, this.inbound);
    return this.opened;
  }

  /** server/utilities/logging (2026-07-28): nothing unless the request asked for a level. */
  wantsLog(level: LogLevel): boolean {
    return this.logLevel !== undefined && shouldLog(level, this.logLevel);
  }

  ask(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
    const rounds = this.rounds;
    if (!rounds) {
      // basic/patterns/mrtr §Supported Requests: only these three may ask the client.
      return Promise.reject(
        new McpError(
          ErrorCode.InvalidRequest,
          `${method} is not available while answering ${this.inbound.method}: only tools/call, prompts/get and resources/read can ask the client for input`,
        ),
      );
    }
    return rounds.input(method, params, options?.inputKey);
  }

  get roundEnded(): Promise<unknown> | undefined {
    return this.rounds?.suspended;
  }

  notify(method: string, params: object): void {
    this.send(method, params);
  }

  subscribe(): void {}
  unsubscribe(): void {}
}
