import type { RequestOptions } from "../../../connection/connection-options.js";
import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { type RevisionRules, revisionRules } from "../../../protocol/revisions.js";
import type { ClientCapabilities, ServerCapabilities } from "../../../protocol/types/capabilities.js";
import type { Implementation, LogLevel } from "../../../protocol/types/common.js";
import type { ClientPeer } from "../../dispatch/client-peer.js";
import { shouldLog } from "../../dispatch/request-context.js";
import type { Registry } from "../../registry/registry.js";
import type { Envelope } from "./envelope.js";
import type { Rounds } from "./rounds.js";

/**
 * The client as one modern request describes it: its `_meta` envelope. Requests to the
 * client become input requests of the multi round-trip request (`rounds`), which only
 * the methods in INPUT_METHODS may make.
 */
export class ModernPeer implements ClientPeer {
  readonly rules: RevisionRules;
  readonly sessionId = undefined;
  readonly session = undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly serverCapabilities: ServerCapabilities;
  logLevel: LogLevel | undefined;
  private readonly rounds: Rounds | undefined;
  private readonly method: string;
  private readonly send: (method: string, params: object) => void;

  constructor(
    server: Registry,
    envelope: Envelope,
    method: string,
    rounds: Rounds | undefined,
    send: (method: string, params: object) => void,
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

  ask(method: string, params: JsonObject, options?: RequestOptions): Promise<JsonObject> {
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

  get roundEnded(): Promise<unknown> | undefined {
    return this.rounds?.suspended;
  }

  notify(method: string, params: object): void {
    this.send(method, params);
  }

  subscribe(): void {}
  unsubscribe(): void {}
}
