import type { InstallClient } from "../install-target.js";
import type { ServerSpec } from "../server-spec.js";

/**
 * The entry as the client's file has it (docs/workflow.md gives each client's source). A
 * server at a URL reaches a client that takes commands only through `mcpkit serve proxy`
 * already (placement.ts); `envFile` is VS Code's own.
 */
export function clientEntry(
  client: InstallClient,
  spec: ServerSpec,
  name: string,
  envFile?: string,
): Record<string, unknown> {
  if (spec.transport !== "stdio") {
    const headers = Object.keys(spec.headers).length > 0 ? spec.headers : undefined;
    switch (client) {
      case "cursor":
        return { url: spec.url, ...(headers && { headers }) };
      case "windsurf":
        return { serverUrl: spec.url, ...(headers && { headers }) };
      case "gemini":
        return { httpUrl: spec.url, ...(headers && { headers }) };
      case "codex":
        return { url: spec.url, ...(headers && { http_headers: headers }) };
      case "goose":
        return {
          name,
          type: "streamable_http",
          enabled: true,
          uri: spec.url,
          headers: headers ?? {},
          envs: {},
          env_keys: [],
          timeout: 300,
        };
      case "continue":
        return { name, type: "streamable-http", url: spec.url, ...(headers && { requestOptions: { headers } }) };
      default:
        return { type: spec.transport, url: spec.url, ...(headers && { headers }) };
    }
  }
  const env = Object.keys(spec.env).length > 0 ? spec.env : undefined;
  const { command, args } = spec;
  switch (client) {
    case "claude-code":
      return { type: "stdio", command, args, ...(env && { env }) };
    case "vscode":
      return { type: "stdio", command, args, ...(env && { env }), ...(envFile !== undefined && { envFile }) };
    case "zed":
      return { source: "custom", command, args, env: env ?? {} };
    case "goose":
      return { name, type: "stdio", enabled: true, cmd: command, args, envs: env ?? {}, env_keys: [], timeout: 300 };
    case "continue":
      return { name, type: "stdio", command, args, ...(env && { env }) };
    default:
      return { command, args, ...(env && { env }) };
  }
}
