import { LOCALHOST_NAMES, listen, type TrustProxy } from "mcpkit/http";
import type { Cluster } from "./cluster.js";
import type { HttpLimits } from "./limits.js";

/** Listening and endpoints as `serve` and `gateway` both do them over HTTP. */

/** Whether a bind address is this machine's alone. */
export const isLocal = (host: string) => LOCALHOST_NAMES.includes(host) || host === "::1";

/** DNS-rebinding protection: a local bind answers only to local names; another bind to its own name too. */
export const allowedHostsFor = (host: string): string[] =>
  isLocal(host) ? LOCALHOST_NAMES : [host.includes(":") ? `[${host}]` : host, ...LOCALHOST_NAMES];

/** Listens on HOST:PORT; a port in use is refused with the flag that chooses another. */
export function listenOn(
  router: Parameters<typeof listen>[0],
  options: { port: number; host: string; trustProxy?: TrustProxy | undefined },
) {
  const { port, host, trustProxy } = options;
  return listen(router, { port, host, ...(trustProxy && { trustProxy }) }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") throw new Error(`Port ${port} on ${host} is in use: choose another with --port`);
    throw error;
  });
}

/** A Streamable HTTP endpoint's options: the hosts it answers, the limits, its tokens' resource server, the cluster's stores. */
export const streamableOptions = <R>(
  allowedHosts: string[],
  limits: HttpLimits,
  resource: R | undefined,
  cluster: Cluster | undefined,
) => ({
  allowedHosts,
  ...limits,
  ...(resource && { auth: resource }),
  ...(cluster && { sessionStore: cluster.sessionStore, eventStore: cluster.eventStore }),
});

/** The HTTP+SSE (2024-11-05) endpoint's options: the hosts it answers, its messages path, the session cap. */
export const sseOptions = (allowedHosts: string[], limits: HttpLimits) => ({
  allowedHosts,
  messagesPath: "/messages",
  ...(limits.maxSessions !== undefined && { maxSessions: limits.maxSessions }),
});
