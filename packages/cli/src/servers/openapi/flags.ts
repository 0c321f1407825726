import { Option } from "commander";
import { durationMs } from "../../commands/duration.js";
import { wholeNumber } from "../../commands/numbers.js";
import { UsageError } from "../../commands/usage-error.js";
import type { ServerFlags } from "../served.js";

const repeatable = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** `mcpkit serve openapi <file-or-url> --base-url URL`: an HTTP API's operations as tools. */
export const flags: ServerFlags = {
  description: "an HTTP API described by an OpenAPI 3.0/3.1 document (a file or URL), one tool per operation",
  operands: "the OpenAPI document: a file (JSON or YAML) or an http(s) URL",
  exposes: "the API, with the credentials given here",
  cluster: true,
  options: () => [
    new Option("--base-url <url>", "where the API's requests go (required; the document's servers are not used)"),
    new Option("--header <header>", 'a header for every request to the API ("Name: value", repeatable)').argParser(
      repeatable,
    ),
    new Option("--bearer-env <name>", "the environment variable holding a bearer token for the API"),
    new Option("--api-key-env <name>", "the environment variable holding the API key (placed as the document says)"),
    new Option("--basic-env <name>", 'the environment variable holding "user:password" for HTTP basic auth'),
    new Option("--tag <tag>", "serve only operations with this tag (repeatable)").argParser(repeatable),
    new Option("--exclude-tag <tag>", "leave out operations with this tag (repeatable)").argParser(repeatable),
    new Option("--operation <id>", 'serve only this operationId or "METHOD /path" (repeatable)').argParser(repeatable),
    new Option("--read-only", "serve only GET operations"),
    new Option("--resources", "also serve GET operations as resource templates"),
    new Option("--validate", "check the document against the OpenAPI schema first"),
    new Option("--no-output-schemas", "publish no outputSchema (for an API whose answers stray from its document)"),
    new Option("--api-timeout <duration>", "how long one call to the API may take: ms, or 30s (default 30000)"),
    new Option("--max-response-bytes <n>", "the largest answer read from the API (default 5242880)"),
    new Option("--tool-catalog <n|off>", "list search_tools instead of every tool past n tools (default 100)"),
  ],
  async create(values, { operands, shared }) {
    const [document, ...rest] = operands;
    if (!document) throw new UsageError("serve openapi needs the document: a file or an http(s) URL");
    if (rest.length) throw new UsageError(`serve openapi takes one document, not also ${rest.join(" ")}`);
    const baseUrl = values.baseUrl as string | undefined;
    if (!baseUrl || !/^https?:\/\//.test(baseUrl))
      throw new UsageError("serve openapi needs --base-url, the API's http(s) URL");
    const headers: Record<string, string> = {};
    for (const value of (values.header as string[] | undefined) ?? []) {
      const colon = value.indexOf(":");
      if (colon <= 0) throw new UsageError(`--header takes "Name: value", not "${value}"`);
      headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
    }
    const secret = (flag: string, key: string) => {
      const name = values[key] as string | undefined;
      if (name === undefined) return undefined;
      const value = process.env[name];
      if (!value) throw new UsageError(`${flag} ${name}: that environment variable is not set`);
      return value;
    };
    const bearer = secret("--bearer-env", "bearerEnv");
    const apiKey = secret("--api-key-env", "apiKeyEnv");
    const basic = secret("--basic-env", "basicEnv");
    if (basic !== undefined && !basic.includes(":"))
      throw new UsageError('--basic-env: the variable must hold "user:password"');
    const catalog = values.toolCatalog as string | undefined;
    const include = {
      ...(values.tag !== undefined && { tags: values.tag as string[] }),
      ...(values.operation !== undefined && { operations: values.operation as string[] }),
      ...(values.readOnly === true && { methods: ["get"] }),
    };
    const { openApiServer } = await import("mcpkit/openapi");
    const server = await openApiServer({
      document,
      baseUrl,
      headers,
      credentials: {
        ...(bearer !== undefined && { bearer }),
        ...(apiKey !== undefined && { apiKey: { value: apiKey } }),
        ...(basic !== undefined && {
          basic: { username: basic.slice(0, basic.indexOf(":")), password: basic.slice(basic.indexOf(":") + 1) },
        }),
      },
      ...(Object.keys(include).length > 0 && { include }),
      ...(values.excludeTag !== undefined && { exclude: { tags: values.excludeTag as string[] } }),
      ...(values.resources === true && { resources: true }),
      ...(values.validate === true && { validate: true }),
      ...(values.outputSchemas === false && { outputSchemas: false }),
      ...(values.apiTimeout !== undefined && {
        timeoutMs: durationMs(String(values.apiTimeout), "--api-timeout", { bare: "ms" }),
      }),
      ...(values.maxResponseBytes !== undefined && {
        maxResponseBytes: wholeNumber(String(values.maxResponseBytes), "--max-response-bytes", 1),
      }),
      server: {
        ...shared,
        ...(catalog !== undefined && {
          toolCatalog: catalog === "off" ? false : { threshold: wholeNumber(catalog, "--tool-catalog", 0) },
        }),
      },
    });
    const count = server.openapi.tools.length;
    return {
      server,
      summary: `${count} operation${count === 1 ? "" : "s"} of ${server.info.name} ${server.info.version}, calling ${baseUrl}`,
      close: async () => {},
    };
  },
};
