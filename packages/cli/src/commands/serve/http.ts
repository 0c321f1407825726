import {
  routeByPath,
  SERVER_CARD_PATHS,
  type SseHandler,
  type StreamableHttpHandler,
  type TrustProxy,
} from "mcpkit/http";
import type { McpServer } from "mcpkit/server";
import { servingHttp } from "../../module/library.js";
import { shellCommand } from "../../self.js";
import { typedCommand } from "../../typed-command.js";
import { type AuthFlags, resourceServer } from "./auth-flags.js";
import {
  type AuthorizationServerFlags,
  type RunningAuthorization,
  startAuthorization,
  type UpstreamChoice,
} from "./authorization-server.js";
import type { Cluster } from "./cluster.js";
import { failWhen } from "./ended.js";
import type { HttpLimits } from "./limits.js";
import { allowedHostsFor, listenOn, sseOptions, streamableOptions } from "./listen.js";
import { firstSignal } from "./shutdown.js";

export { isLocal } from "./listen.js";

export interface HttpServing {
  port: number;
  host: string;
  /** Authorization flags, when tokens of another authorization server are required. */
  auth?: AuthFlags;
  /** An authorization server of our own (--authorization-server), on this server's origin. */
  authorization?: {
    choice: UpstreamChoice;
    flags: AuthorizationServerFlags & AuthFlags;
    upstreamScopes: string[] | undefined;
  };
  limits?: HttpLimits;
  /** Reverse proxies whose X-Forwarded-For names the client (--trust-proxy). */
  trustProxy?: TrustProxy;
  ended?: Promise<string>;
  cluster?: Cluster;
  /** Resolves when serving should stop (default: the first SIGINT or SIGTERM). */
  stop?: Promise<unknown>;
  /** Serve a Server Card (SEP-2127, draft) under this registry-style name. */
  serverCard?: string;
  /** Told the MCP endpoint's URL once it listens (mcpkit dev opens the inspector on it). */
  onListening?: (url: string) => void | Promise<void>;
}

/**
 * Serves `server` on http://HOST:PORT/mcp (and /sse for 2024-11-05 clients) until `stop`
 * or `ended`. Then it stops accepting connections, closes the server (its running tasks
 * fail, its running requests are answered with an error, its sessions end) and ends the
 * connections left.
 */
export async function serveHttp(server: McpServer, serving: HttpServing): Promise<void> {
  const { port, host, auth, authorization, limits = {}, ended, cluster, onListening, serverCard, trustProxy } = serving;
  const stop = serving.stop ?? firstSignal();
  // The endpoints of the copy of mcpkit that made the server (a module's own: module/library.ts).
  const { createStreamableHttpHandler, createSseHandler, serverCardHandler } = await servingHttp(server);
  const allowedHosts = allowedHostsFor(host);
  // Made once the port is known: with authorization, the endpoint's URL is the tokens' audience.
  let streamable: StreamableHttpHandler | undefined;
  let legacy: SseHandler | undefined;
  let metadataPath: string | undefined;
  let issuing: RunningAuthorization | undefined;
  const card = serverCard === undefined ? undefined : serverCardHandler(server, { name: serverCard });
  const routes = routeByPath(
    (path) =>
      path === "/mcp" || path === metadataPath
        ? streamable
        : issuing?.as.handles(path)
          ? issuing.as
          : path === "/sse" || path === "/messages"
            ? legacy
            : card && SERVER_CARD_PATHS.includes(path)
              ? card
              : undefined,
    "Not found: the MCP endpoint is /mcp\n",
  );
  const router = {
    ...routes,
    async close() {
      await Promise.all([streamable?.close(), legacy?.close()]);
    },
  };
  const listening = await listenOn(router, { port, host, trustProxy });
  try {
    const base = listening.url.href.replace(/\/$/, "");
    issuing =
      authorization &&
      (await startAuthorization(authorization.choice, authorization.flags, {
        endpoint: `${base}/mcp`,
        upstreamScopes: authorization.upstreamScopes,
        cluster,
      }));
    const resource = issuing?.resource ?? (auth ? await resourceServer(auth, `${base}/mcp`) : undefined);
    metadataPath = resource?.metadataPath;
    streamable = createStreamableHttpHandler(server, streamableOptions(allowedHosts, limits, resource, cluster));
    // HTTP+SSE (2024-11-05) predates authorization: it is served only when tokens are not
    // required, and by one node only (its sessions live in one process).
    if (!resource && !cluster) legacy = createSseHandler(server, sseOptions(allowedHosts, limits));
    process.stderr.write(
      issuing
        ? `mcpkit: serving MCP on ${base}/mcp (Streamable HTTP), tokens from the authorization server at ${issuing.as.issuer} required; people sign in with ${issuing.upstream.title}${issuing.upstream.development ? " (everyone is the test user: for development only)" : ""}\n`
        : resource
          ? `mcpkit: serving MCP on ${base}/mcp (Streamable HTTP), tokens from ${auth?.authServer} required\n`
          : cluster
            ? `mcpkit: serving MCP on ${base}/mcp (Streamable HTTP) as a node of the cluster on ${cluster.redis.options.host}:${cluster.redis.options.port}\n`
            : `mcpkit: serving MCP on ${base}/mcp (Streamable HTTP) and ${base}/sse (HTTP+SSE)\n`,
    );
    if (card) process.stderr.write(`  its Server Card: ${base}${SERVER_CARD_PATHS[0]}\n`);
    process.stderr.write(`  try it: ${shellCommand(typedCommand())} call ${base}/mcp tools\n  Ctrl+C stops it\n`);
    await onListening?.(`${base}/mcp`);
    await Promise.race([stop, failWhen(ended)]);
  } finally {
    listening.server.close(); // the port closes: no new connection
    listening.server.closeIdleConnections();
    await server.close();
    await listening.close();
  }
}
