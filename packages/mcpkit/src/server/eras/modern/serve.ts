import type { InboundRequest } from "../../../connection/inbound-request.js";
import { runChain } from "../../../connection/middleware-chain.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import { META } from "../../../protocol/meta.js";
import { INPUT_METHODS } from "../../../protocol/methods.js";
import type { Meta } from "../../../protocol/types/common.js";
import type { TransportBinding } from "../../../transports/transport.js";
import { cacheFields, isCacheable } from "../../dispatch/caching.js";
import { dispatch } from "../../dispatch/table.js";
import { inboundRequest } from "../../middleware/message-context.js";
import type { Registry } from "../../registry/registry.js";
import { type Envelope, readEnvelope } from "./envelope.js";
import { ModernPeer } from "./modern-peer.js";
import { Rounds } from "./rounds.js";

/**
 * The modern era adapter (2026-07-28): each request carries its revision and the client's
 * capabilities in `_meta`, is served on its own against the same definition as the legacy
 * era, and gets `resultType` and `serverInfo` on its result. Requests to the client become
 * input requests of a multi round-trip request.
 *
 * `notify` delivers what the handler sends before its result (progress, logs, subscription
 * notifications) on the request's own channel.
 */
export function serveModern(
  server: Registry,
  inbound: InboundRequest,
  notify: (method: string, params: object) => void,
  transport?: TransportBinding,
): Promise<object> {
  let envelope: Envelope;
  try {
    envelope = readEnvelope(inbound.params, server.revisions);
  } catch (error) {
    return Promise.reject(error);
  }
  // Not async itself: without middleware the request costs what it did before (one async call).
  const chain = server.middleware;
  if (chain === undefined) return serveRound(server, inbound, envelope, notify, inbound.params);
  const ctx = inboundRequest(
    {
      era: "modern",
      revision: envelope.version,
      sessionId: undefined,
      session: undefined,
      client: envelope.clientInfo,
      server: server.info,
      transport,
    },
    inbound,
  );
  return runChain(chain, ctx, (c) => serveRound(server, inbound, envelope, notify, c.params));
}

async function serveRound(
  server: Registry,
  inbound: InboundRequest,
  envelope: Envelope,
  notify: (method: string, params: object) => void,
  params: JsonObject | undefined,
): Promise<object> {
  const rounds = INPUT_METHODS.has(inbound.method) ? Rounds.open(server, inbound) : undefined;
  const peer = new ModernPeer(server, envelope, inbound.method, rounds, notify);
  const work = Promise.resolve().then(() => dispatch(server, peer, inbound, params));
  const outcome = rounds ? await Promise.race([work, rounds.suspended]) : await work;
  if (outcome === Rounds.SUSPENDED && rounds) {
    // The handler waits for answers the client has not given: end this round here.
    work.catch(() => {}); // the abandoned handler's outcome belongs to no round: the next round replays it
    inbound.abandon(new Error("Waiting for the client's input (multi round-trip request)"));
    return withServerInfo(server, rounds.inputRequired());
  }
  return complete(server, inbound.method, outcome as object);
}

/** What the era adds to a result reads: its `_meta` and (cacheable ones) its `ttlMs`. */
type Result = { _meta?: Meta; ttlMs?: number };

function withServerInfo<R extends object>(server: Registry, result: R & Result): R & Result {
  return { ...result, _meta: { ...result._meta, [META.serverInfo]: server.info } };
}

/** basic/index §Result: resultType on every result; caching hints where the method is cacheable. */
function complete(server: Registry, method: string, result: Result): Result & { resultType: "complete" } {
  const done = { resultType: "complete" as const, ...withServerInfo(server, result) };
  if (isCacheable(method) && done.ttlMs === undefined) Object.assign(done, cacheFields(server, method));
  return done;
}
