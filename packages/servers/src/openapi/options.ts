import type { ServerOptions } from "mcpkit/server";
import { describeOptions, type OptionValues } from "../options/describe.js";

/** The OpenAPI server's options: `mcpkit serve openapi`'s flags, docs/openapi.md's table. */
export const openapiOptions = describeOptions({
  baseUrl: {
    type: "url",
    help: "where the API's requests go (required; the document's servers are not used)",
  },
  headers: { type: "headers", flag: "--header", help: 'a header for every request to the API, "Name: value"' },
  bearerEnv: {
    type: "text",
    placeholder: "name",
    help: "the environment variable holding a bearer token for the API",
  },
  apiKeyEnv: {
    type: "text",
    placeholder: "name",
    help: "the environment variable holding the API key (placed as the document says)",
  },
  basicEnv: {
    type: "text",
    placeholder: "name",
    help: 'the environment variable holding "user:password" for HTTP basic auth',
  },
  tags: { type: "list", flag: "--tag", placeholder: "tag", help: "serve only operations with this tag" },
  excludeTags: { type: "list", flag: "--exclude-tag", placeholder: "tag", help: "leave out operations with this tag" },
  operations: {
    type: "list",
    flag: "--operation",
    placeholder: "id",
    help: 'serve only this operationId or "METHOD /path"',
  },
  readOnly: { type: "switch", help: "serve only GET operations" },
  resources: { type: "switch", help: "also serve GET operations as resource templates" },
  validate: { type: "switch", help: "check the document against the OpenAPI schema first" },
  outputSchemas: {
    type: "switch",
    default: true,
    help: "publish no outputSchema (for an API whose answers stray from its document)",
  },
  timeoutMs: {
    type: "duration",
    flag: "--api-timeout",
    bare: "ms",
    help: "how long one call to the API may take: ms, or 30s",
    default: 30_000,
  },
  maxResponseBytes: {
    type: "number",
    help: "the largest answer read from the API, in bytes",
    default: 5 * 1024 * 1024,
  },
  toolCatalog: {
    type: "limit",
    help: "list search_tools instead of every tool past n tools",
    default: 100,
  },
});

/** What `openapiServer` takes: the document, the options above, and what only code can give. */
export interface OpenapiServerOptions extends OptionValues<typeof openapiOptions> {
  /** The OpenAPI 3.0/3.1 document: a file (JSON or YAML) or an http(s) URL. */
  document: string;
  /** Where the `…Env` options' variables are read (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** Given to the server as they are (a cluster's event bus and request-state key). */
  serverOptions?: Partial<ServerOptions>;
}
