/**
 * mcpkit/openapi: an HTTP API described by an OpenAPI 3.0 or 3.1 document, served as MCP
 * tools (docs/openapi.md). The only entry that loads the OpenAPI parser.
 */

import { McpServer } from "../server/mcp-server.js";
import type { ServerOptions } from "../server/server-options.js";
import { loadDocument, type OpenApiSource } from "./load.js";
import type { OpenApiOptions } from "./openapi-options.js";
import { addOpenApiTools, type OpenApiTools } from "./register.js";

export type { ApiCredentials, CredentialsOption } from "./credentials.js";
export type { OpenApiDocument } from "./document.js";
export { type LoadOptions, loadDocument as loadOpenApiDocument, type OpenApiSource } from "./load.js";
export type { OpenApiOptions } from "./openapi-options.js";
export type { OperationFilter } from "./operations.js";
export { addOpenApiTools, type OpenApiTool, type OpenApiTools } from "./register.js";

export interface OpenApiServerOptions extends OpenApiOptions {
  /** The MCP server's own options; name and version default to the document's `info`. */
  server?: Partial<ServerOptions>;
}

/** A server whose tools are the document's operations; mount it into another with `server.mount(prefix, api)`. */
export async function openApiServer(options: OpenApiServerOptions): Promise<McpServer & { openapi: OpenApiTools }> {
  const document = await loadDocument(options.document as OpenApiSource, options);
  const info = document.info ?? {};
  const server = new McpServer({
    ...(info.description && { instructions: info.description }),
    ...options.server,
    name: options.server?.name ?? info.title ?? "openapi",
    version: options.server?.version ?? info.version ?? "0.0.0",
  });
  const added = await addOpenApiTools(server, { ...options, document });
  return Object.assign(server, { openapi: added });
}
