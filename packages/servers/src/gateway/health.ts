import type { UpstreamHealth } from "./upstream/upstream.js";

/** What GET /healthz answers: the gateway's status and each upstream's. */
export interface GatewayHealth {
  /** "ok": every upstream started is up (or none has been used yet); "degraded": one is restarting. */
  status: "ok" | "degraded";
  /** Each upstream's, in the configuration's order. */
  upstreams: UpstreamHealth[];
}

export function healthOf(upstreams: UpstreamHealth[]): GatewayHealth {
  const degraded = upstreams.some((u) => u.state === "restarting");
  return { status: degraded ? "degraded" : "ok", upstreams };
}

/** Whether an address is this machine's (IPv4 loopback, ::1, or IPv4 loopback carried in IPv6). */
export const isLoopback = (address: string | undefined) =>
  address !== undefined && (/^(::ffff:)?127\./i.test(address) || address === "::1");

/**
 * GET /healthz: 200 and the gateway's health as JSON while the process serves (a node
 * whose upstream is restarting still serves the others; "status" says "degraded"). Why an
 * upstream last failed is told only to callers on this machine (the client's address,
 * after --trust-proxy): to others, the states and counts, which name no command or address.
 */
export function healthHandler(health: () => GatewayHealth) {
  return {
    async fetch(request: Request, info?: { clientAddress?: string }): Promise<Response> {
      if (request.method !== "GET" && request.method !== "HEAD")
        return new Response("GET /healthz\n", { status: 405, headers: { allow: "GET, HEAD" } });
      const report = health();
      const local = isLoopback(info?.clientAddress);
      const body = local
        ? report
        : { ...report, upstreams: report.upstreams.map(({ lastError: _e, lastErrorAt: _a, ...rest }) => rest) };
      return new Response(request.method === "HEAD" ? null : `${JSON.stringify(body)}\n`, {
        status: 200,
        headers: { "content-type": "application/json", "cache-control": "no-store" },
      });
    },
  };
}
