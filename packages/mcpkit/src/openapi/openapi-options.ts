import type { CredentialsOption } from "./credentials.js";
import type { OpenApiDocument } from "./document.js";
import type { LoadOptions, OpenApiSource } from "./load.js";
import type { OperationFilter } from "./operations.js";

export interface OpenApiOptions extends LoadOptions {
  /** The document: a file path, an http(s) or file URL, or the parsed object (JSON or YAML, 3.0 or 3.1). */
  document: OpenApiSource | OpenApiDocument;
  /**
   * Where every request goes: scheme, host and path prefix (`https://api.example.com/v2`).
   * Required: the document's `servers` are never used, so no host comes from the document
   * or the arguments.
   */
  baseUrl: string | URL;
  /** Only these operations become tools (by tag, path, operationId or method). */
  include?: OperationFilter;
  /** These never do (applied after `include`). */
  exclude?: OperationFilter;
  /** Tool names to use instead of the sanitised operationId: keyed by operationId or `METHOD /path`. */
  names?: Readonly<Record<string, string>>;
  /** Headers sent with every request (`User-Agent`, a fixed `X-Api-Version`…). */
  headers?: Readonly<Record<string, string>>;
  /** The API's credentials: fixed, or per request from the context (see CredentialsOption). */
  credentials?: CredentialsOption;
  /** Per call, redirects and body included, ms (default 30 000). */
  timeoutMs?: number;
  /** The largest answer read, bytes (default 5 MiB). */
  maxResponseBytes?: number;
  /** Redirects followed while they stay under `baseUrl`, its path included (default 5); others never are. */
  maxRedirects?: number;
  /**
   * The largest inputSchema or outputSchema a tool may publish, bytes of JSON (default 1 MiB).
   * An operation whose schema is larger fails the load, naming it: exclude it, or raise this.
   */
  maxSchemaBytes?: number;
  /**
   * The largest the tools may publish together: their inputSchemas, outputSchemas and
   * descriptions, bytes (default 32 MiB). A schema many operations share is in each tool's,
   * so a small document could otherwise list gigabytes. Past it the load fails, naming it.
   */
  maxToolsBytes?: number;
  /** Publishes outputSchema and structuredContent from JSON success responses (default true). */
  outputSchemas?: boolean;
  /**
   * GET operations whose parameters are all path and query ones also become resource
   * templates, `<scheme>://<path>{?query}` (default false; scheme default `openapi`).
   */
  resources?: boolean | { scheme?: string };
  /** The fetch to send requests with (default the global one). */
  fetch?: typeof fetch;
}
