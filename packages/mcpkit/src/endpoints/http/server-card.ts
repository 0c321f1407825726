import { definitionOf, type McpServer } from "../../server/mcp-server.js";
import type { FetchHandler } from "../../transports/http/node.js";

/** Where the card is served: the well-known path, and the draft's reserved `<endpoint>/server-card`. */
export const SERVER_CARD_PATHS = ["/.well-known/mcp/server-card.json", "/mcp/server-card"];

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json";
const MEDIA_TYPE = "application/mcp-server-card+json";

/** Public, read-only metadata: any page may read it (SEP-2127 §CORS Requirements). */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET",
  "access-control-allow-headers": "Content-Type",
};

export interface ServerCardOptions {
  /** The card's name, registry style: namespace/name (io.github.you/my-server). */
  name: string;
  /** The MCP endpoint's path on the card's host (default /mcp). */
  endpointPath?: string;
}

/**
 * An MCP Server Card (SEP-2127, a draft whose shape may still change): who the server is
 * and where to connect, read before connecting. Serve it at one of SERVER_CARD_PATHS.
 * Its fields come from the server's own serverInfo and revisions, and the endpoint's URL
 * from the request, so it cannot drift from what the server says once connected.
 */
export function serverCardHandler(server: McpServer, options: ServerCardOptions): FetchHandler {
  const { name, endpointPath = "/mcp" } = options;
  if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name))
    throw new TypeError(`A server card's name is namespace/name, such as io.github.you/my-server; not "${name}"`);
  return {
    async fetch(request) {
      if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
      if (request.method !== "GET" && request.method !== "HEAD")
        return new Response("Method not allowed: the server card is read with GET\n", {
          status: 405,
          headers: { allow: "GET, HEAD, OPTIONS", ...CORS },
        });
      const { version, title, description, icons, websiteUrl } = server.info;
      const card = {
        $schema: SCHEMA,
        name,
        version,
        description: (description ?? `The ${server.info.name} MCP server`).slice(0, 100),
        ...(title && { title: title.slice(0, 100) }),
        ...(websiteUrl && { websiteUrl }),
        ...(icons && icons.length > 0 && { icons }),
        remotes: [
          {
            type: "streamable-http",
            url: new URL(endpointPath, request.url).href,
            supportedProtocolVersions: [...definitionOf(server).revisions],
          },
        ],
      };
      return new Response(request.method === "HEAD" ? null : `${JSON.stringify(card, null, 2)}\n`, {
        headers: { "content-type": MEDIA_TYPE, "cache-control": "public, max-age=3600", ...CORS },
      });
    },
  };
}
