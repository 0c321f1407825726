import type { UpstreamHealth } from "./upstream/upstream.js";

/** What GET /healthz answers: the gateway's status and each upstream's. */
export interface GatewayHealth {
  /** "ok": every upstream started is up (or none has been used yet); "degraded": one is restarting. */
  status: "ok" | "degraded";
  upstreams: UpstreamHealth[];
}

export function healthOf(upstreams: UpstreamHealth[]): GatewayHealth {
  const degraded = upstreams.some((u) => u.state === "restarting");
  return { status: degraded ? "degraded" : "ok", upstreams };
}
