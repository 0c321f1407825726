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
 * input requests of the multi round-trip request.
 *
 * `notify` delivers what the handler sends before its result (progress, logs, subscription
 * notifications) on the request's own channel. The result itself when the handler answers
 * at once (no promise), else a promise of it; a request that cannot be served throws.
 * `envelope`: the request's `_meta` as its transport already read and checked it.
 */
export function serveModern(
  server: Registry,
  inbound: InboundRequest,
  notify: (method: string, params: object) => void,
  transport?: TransportBinding,
  envelope: Envelope = readEnvelope(inbound.params, server.revisions),
): object | Promise<object> {
  const chain = server.middleware;
  if (chain === undefined) return serveRound(server, inbound, envelope, notify, inbound.params, true);
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
  return runChain(chain, ctx, (c) => serveRound(server, inbound, envelope, notify, c.params, false));
}

/**
 * One round of the request. `owned`: the result goes nowhere but to the wire, so its `_meta`
 * may be one object shared by every result (middleware, which may change what it is given,
 * gets a copy of its own).
 */
function serveRound(
  server: Registry,
  inbound: InboundRequest,
  envelope: Envelope,
  notify: (method: string, params: object) => void,
  params: JsonObject | undefined,
  owned: boolean,
): object | Promise<object> {
  // A retry's earlier answers are checked before the handler runs; a first round's
  // Rounds is made only if the handler asks (ModernPeer).
  const rounds = Rounds.isRetry(inbound.params) ? Rounds.open(server, inbound) : undefined;
  const peer = new ModernPeer(server, envelope, inbound, rounds, notify);
  const work = dispatch(server, peer, inbound, params);
  if (!(work instanceof Promise)) return complete(server, inbound.method, work, owned);
  if (!INPUT_METHODS.has(inbound.method)) return work.then((result) => complete(server, inbound.method, result, owned));
  return settleRound(server, inbound, peer, work, owned);
}

/** A request that may ask the client: it ends with its result, or with the round when it waits for answers. */
async function settleRound(
  server: Registry,
  inbound: InboundRequest,
  peer: ModernPeer,
  work: Promise<object>,
  owned: boolean,
): Promise<object> {
  const rounds = peer.rounds as Rounds;
  const outcome = await Promise.race([work, rounds.suspended]);
  if (outcome === Rounds.SUSPENDED) {
    // The handler waits for answers the client has not given: end this round here.
    work.catch(() => {}); // the abandoned handler's outcome belongs to no round: the next round replays it
    inbound.abandon(new Error("Waiting for the client's input (multi round-trip request)"));
    return withServerInfo(server, rounds.inputRequired());
  }
  return complete(server, inbound.method, outcome as object, owned);
}

/** What the era adds to a result reads: its `_meta` and (cacheable ones) its `ttlMs`. */
type Result = { _meta?: Meta; ttlMs?: number };

/** `{ serverInfo }` as a result's `_meta`, made once per server. */
const infoMetas = new WeakMap<Registry, Meta>();
function infoMeta(server: Registry): Meta {
  let meta = infoMetas.get(server);
  if (meta === undefined) {
    meta = { [META.serverInfo]: server.info };
    infoMetas.set(server, meta);
  }
  return meta;
}

function withServerInfo<R extends object>(server: Registry, result: R & Result): R & Result {
  return { ...result, _meta: { ...result._meta, [META.serverInfo]: server.info } };
}

/** basic/index §Result: resultType on every result; caching hints where the method is cacheable. */
function complete(
  server: Registry,
  method: string,
  result: Result,
  owned: boolean,
): Result & { resultType: "complete" } {
  const _meta =
    owned && result._meta === undefined ? infoMeta(server) : { ...result._meta, [META.serverInfo]: server.info };
  const done = { resultType: "complete" as const, ...result, _meta };
  if (isCacheable(method) && done.ttlMs === undefined) Object.assign(done, cacheFields(server, method));
  return done;
}
