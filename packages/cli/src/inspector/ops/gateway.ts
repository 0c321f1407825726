import { readGatewayHealth } from "../gateway-health.js";
import { empty } from "./check.js";
import type { OperationTable } from "./context.js";

/** A gateway's upstreams, from its /healthz beside the connected HTTP server (../gateway-health.ts). */
export const gatewayOps: OperationTable<"gateway/health"> = {
  "gateway/health": { parse: empty, run: (_request, ctx) => readGatewayHealth(ctx.session.target) },
};
