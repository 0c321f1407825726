import type { ServerHandle } from "../handle.js";
import { UsageError } from "../options/usage-error.js";
import type { OpenapiServerOptions } from "./options.js";

export type { ServerHandle } from "../handle.js";
export { type OpenapiServerOptions, openapiOptions } from "./options.js";

/** An OpenAPI server holds nothing to release: `close()` is there for the shape every factory shares. */
export type OpenapiServer = ServerHandle;

/**
 * An HTTP API described by an OpenAPI 3.0/3.1 document, one tool per operation (mcpkit's
 * `openApiServer`, docs/openapi.md), configured as `mcpkit serve openapi` is: credentials
 * named by the environment variables that hold them, never given as values.
 *
 * ```ts
 * const { server } = await openapiServer({ document: "./petstore.yaml", baseUrl: "https://petstore.example.com", readOnly: true });
 * ```
 */
export async function openapiServer(options: OpenapiServerOptions): Promise<OpenapiServer> {
  const { baseUrl } = options;
  if (!baseUrl || !/^https?:\/\//.test(baseUrl))
    throw new UsageError("serve openapi needs --base-url, the API's http(s) URL");
  const env = options.env ?? process.env;
  const secret = (flag: string, name: string | undefined) => {
    if (name === undefined) return undefined;
    const value = env[name];
    if (!value) throw new UsageError(`${flag} ${name}: that environment variable is not set`);
    return value;
  };
  const bearer = secret("--bearer-env", options.bearerEnv);
  const apiKey = secret("--api-key-env", options.apiKeyEnv);
  const basic = secret("--basic-env", options.basicEnv);
  if (basic !== undefined && !basic.includes(":"))
    throw new UsageError('--basic-env: the variable must hold "user:password"');
  const include = {
    ...(options.tags !== undefined && { tags: options.tags }),
    ...(options.operations !== undefined && { operations: options.operations }),
    ...(options.readOnly === true && { methods: ["get"] }),
  };
  // The OpenAPI parser is loaded only by this server.
  const { openApiServer } = await import("mcpkit/openapi");
  const server = await openApiServer({
    document: options.document,
    baseUrl,
    headers: options.headers ?? {},
    credentials: {
      ...(bearer !== undefined && { bearer }),
      ...(apiKey !== undefined && { apiKey: { value: apiKey } }),
      ...(basic !== undefined && {
        basic: { username: basic.slice(0, basic.indexOf(":")), password: basic.slice(basic.indexOf(":") + 1) },
      }),
    },
    ...(Object.keys(include).length > 0 && { include }),
    ...(options.excludeTags !== undefined && { exclude: { tags: options.excludeTags } }),
    ...(options.resources === true && { resources: true }),
    ...(options.validate === true && { validate: true }),
    ...(options.outputSchemas === false && { outputSchemas: false }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.maxResponseBytes !== undefined && { maxResponseBytes: options.maxResponseBytes }),
    server: {
      ...options.serverOptions,
      ...(options.toolCatalog !== undefined && {
        toolCatalog: options.toolCatalog === false ? false : { threshold: options.toolCatalog },
      }),
    },
  });
  const count = server.openapi.tools.length;
  return {
    server,
    summary: `${count} operation${count === 1 ? "" : "s"} of ${server.info.name} ${server.info.version}, calling ${baseUrl}`,
    close: async () => {},
  };
}
