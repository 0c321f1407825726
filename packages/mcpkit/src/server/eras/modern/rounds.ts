import type { InboundRequest } from "../../../connection/inbound-request.js";
import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { answerProblem } from "../../../protocol/input-answer.js";
import { InputResponseError } from "../../dispatch/client-peer.js";
import { principalOf } from "../../principal.js";
import type { Registry } from "../../registry/registry.js";
import { requestDigest } from "./request-digest.js";
import { openRequestState, RequestStateError, sealRequestState } from "./request-state.js";

const PREFIX: Record<string, string> = {
  "elicitation/create": "elicit",
  "sampling/createMessage": "sample",
  "roots/list": "roots",
};

/**
 * One round of a multi round-trip request (basic/patterns/mrtr), served by replaying the
 * handler: requests to the client find their answers, by key, in `inputResponses` or in
 * the signed `requestState` of earlier rounds. When a handler waits for an answer it does
 * not have, the round ends with an InputRequiredResult naming every missing input, and the
 * answers so far ride along in a new requestState.
 */
export class Rounds {
  static readonly SUSPENDED: unique symbol = Symbol("suspended");
  private suspension: Promise<typeof Rounds.SUSPENDED> | undefined;
  private resolveSuspended: ((value: typeof Rounds.SUSPENDED) => void) | undefined;
  private isSuspended = false;
  private timer: ReturnType<typeof setImmediate> | undefined;
  private readonly server: Registry;
  private readonly known: Record<string, unknown>;
  private readonly used = new Map<string, unknown>();
  private readonly missing = new Map<string, { method: string; params: JsonObject }>();
  private readonly counters = new Map<string, number>();
  private readonly inbound: InboundRequest;
  private readonly principal: string | undefined;

  private constructor(
    server: Registry,
    inbound: InboundRequest,
    principal: string | undefined,
    known: Record<string, unknown>,
  ) {
    this.server = server;
    this.inbound = inbound;
    this.principal = principal;
    this.known = known;
  }

  /** Resolves when this round ends for want of answers (made when first awaited). */
  get suspended(): Promise<typeof Rounds.SUSPENDED> {
    this.suspension ??= this.isSuspended
      ? Promise.resolve(Rounds.SUSPENDED)
      : new Promise((resolve) => {
          this.resolveSuspended = resolve;
        });
    return this.suspension;
  }

  private suspend(): void {
    this.isSuspended = true;
    this.resolveSuspended?.(Rounds.SUSPENDED);
  }

  /** A first round: nothing known yet (a request without requestState or inputResponses). */
  static fresh(server: Registry, inbound: InboundRequest): Rounds {
    return new Rounds(server, inbound, principalOf(inbound.info?.auth), {});
  }

  /** Whether a request brings answers of earlier rounds (then `open` checks them before the handler runs). */
  static isRetry(params: JsonObject | undefined): boolean {
    return params?.requestState !== undefined || params?.inputResponses !== undefined;
  }

  /** Reads the retry's requestState and inputResponses; a tampered or stale state is -32602. */
  static open(server: Registry, inbound: InboundRequest): Rounds {
    const params = inbound.params ?? {};
    const principal = principalOf(inbound.info?.auth);
    let known: Record<string, unknown> = {};
    if (params.requestState !== undefined) {
      if (typeof params.requestState !== "string") throw invalid('"requestState" must be a string');
      try {
        const request = requestDigest(inbound.method, params);
        known = { ...openRequestState(params.requestState, server.requestStateKey, { request, principal }).answers };
      } catch (error) {
        if (error instanceof RequestStateError) throw invalid(error.message);
        throw error;
      }
    }
    const responses = params.inputResponses;
    if (responses !== undefined) {
      if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
        throw invalid('"inputResponses" must be an object of results by key');
      }
      known = { ...known, ...(responses as Record<string, unknown>) };
    }
    return new Rounds(server, inbound, principal, known);
  }

  /** Answers a request to the client from what is known, or records it as missing. */
  input(method: string, params: JsonObject, key?: string): Promise<JsonObject> {
    const prefix = PREFIX[method] ?? method;
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    const name = key ?? `${prefix}-${n}`;
    if (Object.hasOwn(this.known, name)) {
      const answer = this.known[name];
      const problem = answerProblem(method, answer);
      if (problem) {
        return Promise.reject(
          new InputResponseError(
            `Invalid params: inputResponses["${name}"] is not a valid answer to ${method}: ${problem}`,
          ),
        );
      }
      this.used.set(name, answer);
      return Promise.resolve(answer as JsonObject);
    }
    this.missing.set(name, { method, params });
    // Requests made together (Promise.all) land in the same round: wait for the turn to end.
    if (this.timer) clearImmediate(this.timer);
    this.timer = setImmediate(() => this.suspend());
    return new Promise(() => {});
  }

  /** mrtr §InputRequiredResult: the missing inputs, and the answers so far, signed. */
  inputRequired(): JsonObject {
    const inputRequests: JsonObject = {};
    for (const [name, request] of this.missing) inputRequests[name] = request;
    const requestState = sealRequestState(
      {
        // Digested only when a state is sealed: most requests finish in one round.
        request: requestDigest(this.inbound.method, this.inbound.params),
        answers: Object.fromEntries(this.used),
        expires: Date.now() + (this.server.options.requestStateTtlMs ?? 10 * 60_000),
        ...(this.principal !== undefined && { principal: this.principal }),
      },
      this.server.requestStateKey,
    );
    return { resultType: "input_required", inputRequests, requestState };
  }
}

const invalid = (message: string) => new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`);
