import { type Gateway, healthHandler } from "@mcpkit/servers/gateway";
import type { ResourceServer } from "mcpkit/auth";
import {
  createSseHandler,
  createStreamableHttpHandler,
  type FetchHandler,
  routeByPath,
  type SseHandler,
  type StreamableHttpHandler,
  type TrustProxy,
} from "mcpkit/http";
import type { McpServer } from "mcpkit/server";
import { type AuthFlags, resourceServer } from "../serve/auth-flags.js";
import {
  type AuthorizationServerFlags,
  type RunningAuthorization,
  startAuthorization,
  type UpstreamChoice,
} from "../serve/authorization-server.js";
import type { Cluster } from "../serve/cluster.js";
import type { HttpLimits } from "../serve/limits.js";
import { allowedHostsFor, listenOn, sseOptions, streamableOptions } from "../serve/listen.js";

export interface GatewayServing {
  port: number;
  host: string;
  auth?: AuthFlags;
  authorization?: { choice: UpstreamChoice; flags: AuthorizationServerFlags & AuthFlags };
  limits?: HttpLimits;
  trustProxy?: TrustProxy;
  cluster?: Cluster;
  /** Told each line for stderr. */
  write: (line: string) => void;
}

/** The gateway served over HTTP. */
export interface GatewayListening {
  /** The gateway's MCP endpoint. */
  url: string;
  /** The identity provider people sign in with, when the gateway runs its own sign-in. */
  signIn: { id: string; title: string } | undefined;
  /** Serves the virtual servers a reload added (answering their URLs), and closes those it removed. */
  sync(): Promise<string[]>;
  close(): Promise<void>;
}

/** One MCP endpoint: a server at a path, its handler, and its resource server when tokens are required. */
interface Endpoint {
  server: McpServer;
  handler: StreamableHttpHandler;
  resource: ResourceServer | undefined;
}

export { isLocal } from "../serve/listen.js";

/**
 * Serves the gateway over HTTP: its server at /mcp (and /sse for 2024-11-05
 * clients, when neither tokens nor a cluster are in play), each virtual server at its path,
 * GET /healthz, and the authorization server's paths when it runs one. Virtual servers
 * added or removed by a reload are served or closed as they change.
 */
export async function listenGateway(gateway: Gateway, serving: GatewayServing): Promise<GatewayListening> {
  const { port, host, auth, authorization, limits = {}, cluster, trustProxy, write } = serving;
  const allowedHosts = allowedHostsFor(host);
  const endpoints = new Map<string, Endpoint>();
  const metadata = new Map<string, Endpoint>();
  let legacy: SseHandler | undefined;
  let issuing: RunningAuthorization | undefined;
  let base = "";
  const health = healthHandler(() => gateway.health());

  const routes = routeByPath((path): FetchHandler | undefined => {
    if (path === "/healthz") return gateway.config.health ? health : undefined;
    const endpoint = endpoints.get(path) ?? metadata.get(path);
    if (endpoint) return endpoint.handler;
    if (issuing?.as.handles(path)) return issuing.as;
    if (path === "/sse" || path === "/messages") return legacy;
    return undefined;
  }, "Not found: the gateway's MCP endpoint is /mcp\n");

  /** The public URL of a path: under --public-url's origin when given (it names /mcp). */
  const urlOf = (path: string) => {
    const publicUrl = auth?.publicUrl ?? authorization?.flags.publicUrl;
    return publicUrl ? new URL(path, publicUrl).href : `${base}${path}`;
  };
  const resourceOf = async (path: string) => {
    if (issuing) return path === "/mcp" ? issuing.resource : issuing.resourceFor(urlOf(path));
    if (auth) return resourceServer({ ...auth, publicUrl: urlOf(path) }, urlOf(path));
    return undefined;
  };
  /** Serves the gateway's server and each virtual server; closes the handlers of those gone. Answers the URLs added. */
  const sync = async () => {
    const added: string[] = [];
    const wanted = new Map<string, McpServer>([["/mcp", gateway.server], ...gateway.virtualServers()]);
    for (const [path, endpoint] of endpoints) {
      if (wanted.get(path) === endpoint.server) continue;
      endpoints.delete(path);
      if (endpoint.resource) metadata.delete(endpoint.resource.metadataPath);
      endpoint.handler.close().catch((error: unknown) => write(`mcpkit gateway: ${(error as Error).message}`));
    }
    for (const [path, server] of wanted) {
      if (endpoints.has(path)) continue;
      const resource = await resourceOf(path);
      const handler = createStreamableHttpHandler(server, streamableOptions(allowedHosts, limits, resource, cluster));
      const endpoint = { server, handler, resource };
      endpoints.set(path, endpoint);
      if (resource) metadata.set(resource.metadataPath, endpoint);
      added.push(`${base}${path}`);
    }
    return added;
  };

  const router = {
    ...routes,
    async close() {
      await Promise.all([...[...endpoints.values()].map((e) => e.handler.close()), legacy?.close()]);
    },
  };
  const listening = await listenOn(router, { port, host, trustProxy });
  const stop = async () => {
    listening.server.close();
    listening.server.closeIdleConnections();
    await listening.close();
  };
  try {
    base = listening.url.href.replace(/\/$/, "");
    if (authorization)
      issuing = await startAuthorization(authorization.choice, authorization.flags, {
        endpoint: `${base}/mcp`,
        cluster,
        // The virtual servers of the configuration serving: a reload that adds one can be signed in to at once.
        also: () => gateway.config.virtualServers.map((v) => urlOf(v.path)),
      });
    await sync();
    if (!issuing && !auth && !cluster) legacy = createSseHandler(gateway.server, sseOptions(allowedHosts, limits));
  } catch (error) {
    await stop();
    throw error;
  }
  write(
    `mcpkit gateway: serving MCP on ${base}/mcp${legacy ? ` (and ${base}/sse for 2024-11-05 clients)` : ""}${
      issuing
        ? `, people signing in with ${issuing.upstream.title}`
        : auth
          ? `, tokens from ${auth.authServer} required`
          : ""
    }${cluster ? ", as a node of the cluster" : ""}`,
  );
  for (const path of gateway.virtualServers().keys()) write(`  virtual server: ${base}${path}`);
  if (gateway.config.health) write(`  health: ${base}/healthz`);
  const signIn = issuing && { id: issuing.upstream.id, title: issuing.upstream.title };
  return { url: `${base}/mcp`, signIn, sync, close: stop };
}
