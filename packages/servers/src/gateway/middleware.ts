import { ErrorCode, McpError, RATE_LIMITED, rateLimit } from "mcpkit/middleware";
import { principalOf, type ServerMiddleware, type ServerMiddlewareContext } from "mcpkit/server";
import type { AuditRecord } from "./audit/audit-log.js";
import type { Auditor } from "./audit/auditor.js";
import type { RateConfig } from "./config/types.js";
import { claimsOf } from "./policy/claims.js";
import type { Policy } from "./policy/policy.js";
import type { Surface } from "./surface.js";
import { caller } from "./upstream/caller.js";
import { tokenRefusal } from "./upstream/person-token.js";
import type { Upstream } from "./upstream/upstream.js";

/** What the gateway's middleware reads; its fields change on reload. */
export interface GatewayState {
  surface: Surface;
  upstream(name: string): Upstream | undefined;
  /** Starts every upstream not started yet; resolves when each has started or failed. */
  ensureStarted(): Promise<void>;
  auditor: Auditor;
  policy: Policy;
  rateLimit: RateConfig | undefined;
}

/** The call a request makes of an upstream: which, and what of it. */
interface Call {
  upstream: string;
  kind: "tool" | "prompt" | "resource";
  name: string;
  served?: string;
}

/** How mcpkit's proxy begins the message of a request that failed on its way upstream (compose/upstream-errors.ts). */
const PROXY_FAILURE = "The server behind this proxy";

const AUDITED = new Set(["tools/call", "prompts/get", "resources/read"]);

function callOf(ctx: ServerMiddlewareContext, state: GatewayState): Call | undefined {
  const params = ctx.params ?? {};
  if (ctx.method === "tools/call" || ctx.method === "prompts/get") {
    const kind = ctx.method === "tools/call" ? "tool" : "prompt";
    const served = typeof params.name === "string" ? params.name : "";
    const target = state.surface.target(kind, served);
    return target && { upstream: target.upstream, kind, name: target.name, served };
  }
  if (ctx.method === "resources/read" || ctx.method === "resources/subscribe") {
    const uri = typeof params.uri === "string" ? params.uri : "";
    const upstream = state.surface.upstreamOfUri(uri);
    return upstream === undefined ? undefined : { upstream, kind: "resource", name: uri };
  }
  if (ctx.method === "completion/complete") {
    const ref = (params.ref ?? {}) as { type?: string; name?: string; uri?: string };
    if (ref.type === "ref/prompt" && typeof ref.name === "string") {
      const target = state.surface.target("prompt", ref.name);
      return target && { upstream: target.upstream, kind: "prompt", name: target.name, served: ref.name };
    }
    const upstream = typeof ref.uri === "string" ? state.surface.upstreamOfUri(ref.uri) : undefined;
    return upstream === undefined ? undefined : { upstream, kind: "resource", name: String(ref.uri) };
  }
  return undefined;
}

/**
 * The gateway's middleware, outermost first: the audit line of each call (it sees the
 * refusals of those after it), the rate per principal, the upstreams started on first
 * use, and the call itself: counted (so a reload lets it finish), run as its caller (the
 * person's upstream token), and, when its upstream stopped under it, failed with why.
 */
export function gatewayMiddleware(state: GatewayState): ServerMiddleware[] {
  return [audit(state), rates(state), startOnFirstUse(state), calls(state)];
}

function audit(state: GatewayState): ServerMiddleware {
  return async (ctx, next) => {
    if (!state.auditor.enabled || ctx.kind !== "request" || ctx.direction !== "inbound" || !AUDITED.has(ctx.method))
      return next();
    const started = performance.now();
    const call = callOf(ctx, state);
    const params = ctx.params ?? {};
    const record = (outcome: AuditRecord["outcome"], error?: { code: number; message: string }): AuditRecord => ({
      time: new Date().toISOString(),
      ...(ctx.principal !== undefined && { principal: principalOf(ctx.principal) }),
      ...(ctx.sessionId !== undefined && { session: ctx.sessionId }),
      method: ctx.method,
      ...(call && { upstream: call.upstream }),
      ...(call?.kind === "tool" && { tool: call.name, served: call.served }),
      ...(call?.kind === "prompt" && { prompt: call.name, served: call.served }),
      ...(ctx.method === "resources/read" && { resource: String(params.uri) }),
      ...(ctx.method !== "resources/read" && state.auditor.arguments(params.arguments)),
      outcome,
      ...(error && { error }),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    });
    try {
      const result = (await next()) as { isError?: unknown; resultType?: unknown };
      state.auditor.write(record(outcomeOfResult(result)));
      return result;
    } catch (error) {
      // Its client cancelled it (and the upstream was told): no error of anyone's, and none answered.
      if (ctx.signal?.aborted) {
        state.auditor.write(record("cancelled"));
        throw error;
      }
      const code = error instanceof McpError ? error.code : ErrorCode.InternalError;
      const message = state.auditor.message(error instanceof McpError ? error.message : "Internal error");
      state.auditor.write(record(outcomeOf(ctx, state, code), { code, message }));
      throw error;
    }
  };
}

/**
 * How an answered call ended. A 2026-07-28 call whose upstream asks its client something
 * ends its first round with input_required: the call goes on in the request that answers
 * (its own line), so this one is not yet "ok".
 */
function outcomeOfResult(result: { isError?: unknown; resultType?: unknown }): AuditRecord["outcome"] {
  if (result.resultType === "input_required") return "input-required";
  return result.isError === true ? "tool-error" : "ok";
}

/** A refusal the policy made (the name exists, hidden from this principal) is "denied". */
function outcomeOf(ctx: ServerMiddlewareContext, state: GatewayState, code: number): AuditRecord["outcome"] {
  if (code === RATE_LIMITED) return "rate-limited";
  const call = callOf(ctx, state);
  if (!call || !state.policy.active) return "error";
  const target =
    call.kind === "resource"
      ? { server: call.upstream, kind: call.kind }
      : { server: call.upstream, kind: call.kind, name: call.name };
  return state.policy.allows(claimsOf(ctx.principal), target) ? "error" : "denied";
}

/** The rate each principal calls at: the first policy rule matching it that sets one, else `rateLimit`. */
function rates(state: GatewayState): ServerMiddleware {
  const limiters = new Map<string, ServerMiddleware>();
  return (ctx, next) => {
    const rate = (state.policy.active && state.policy.rateFor(claimsOf(ctx.principal))) || state.rateLimit;
    if (!rate) return next();
    const key = `${rate.perSecond}/${rate.burst ?? ""}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = rateLimit<ServerMiddlewareContext>({
        perSecond: rate.perSecond,
        ...(rate.burst && { burst: rate.burst }),
      });
      limiters.set(key, limiter);
    }
    return limiter(ctx, next);
  };
}

function startOnFirstUse(state: GatewayState): ServerMiddleware {
  return async (ctx, next) => {
    if (ctx.kind === "request" && ctx.direction === "inbound" && ctx.method !== "ping") await state.ensureStarted();
    return next();
  };
}

function calls(state: GatewayState): ServerMiddleware {
  return async (ctx, next) => {
    if (ctx.kind !== "request" || ctx.direction !== "inbound") return next();
    const call = callOf(ctx, state);
    const upstream = call && state.upstream(call.upstream);
    if (!call || !upstream) return caller.run({ auth: ctx.principal }, next);
    // An upstream that acts with each person's own token: refused here, before anything is sent to it.
    const token = upstream.config.token;
    const refused = token && tokenRefusal(ctx.principal, call.upstream, token);
    if (refused) throw refused;
    const proxy = upstream.proxy;
    return upstream.track(async () => {
      try {
        return await caller.run({ auth: ctx.principal }, next);
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        // The connection ended under the call, or was gone already (an HTTP failure carries its own reason in data).
        const data = error.data as { reason?: unknown } | undefined;
        if (error.code === ErrorCode.ConnectionClosed && (data === undefined || data.reason === "upstream-exited")) {
          const failure = upstream.failure();
          const reason = (proxy && (await upstream.exitReason(proxy, 1000))) ?? failure?.reason;
          const what = !proxy && failure?.kind === "start" ? "could not start" : "stopped";
          throw new McpError(
            ErrorCode.ConnectionClosed,
            `The "${call.upstream}" server ${what}${reason ? ` (${reason})` : ""}; the gateway is starting it again: try again shortly`,
            { reason: "upstream-stopped", upstream: call.upstream },
          );
        }
        // The proxy says what failed of "the server behind this proxy": the gateway names which.
        if (!error.message.startsWith(PROXY_FAILURE)) throw error;
        const rest = error.message.slice(PROXY_FAILURE.length).replace(/\bthe proxy\b/g, "the gateway");
        const message = `The "${call.upstream}" server${rest}`;
        upstream.requestFailed(message);
        throw new McpError(error.code, message, { ...(data ?? {}), upstream: call.upstream });
      }
    });
  };
}
