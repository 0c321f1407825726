import { proxyOptions } from "@mcpkit/servers/proxy/options";
import { defineFlags } from "./served.js";

/** `mcpkit serve proxy URL` or `mcpkit serve proxy -- COMMAND [ARGS…]`: another server, served again. */
export const flags = defineFlags({
  description: "another MCP server (a URL, or -- and the command that starts it), served again",
  operands: "the URL of the server to front, or -- and the command that starts it",
  exposes: "the server it fronts",
  cluster: {
    refused:
      "a proxy holds its connections to the proxied server in one process (one per client session, with that server's session state, subscriptions and requests in flight), which another node cannot take over, and each node would pass the proxied server's notifications on again. Run one proxy, or run the proxied server itself as a cluster",
  },
  options: proxyOptions,
  async create(values, { operands }) {
    const { proxyServer, proxyTarget } = await import("@mcpkit/servers/proxy");
    const handle = await proxyServer({ ...values, target: proxyTarget(operands) });
    return {
      ...handle,
      // Clients that never DELETE their session leave a process each: idle ones go after 5 minutes.
      idleTimeoutMs: 5 * 60_000,
      admitSession: () => handle.proxy.admitSession(),
    };
  },
});
