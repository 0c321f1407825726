import type { ClientConfig, ConfigFormat } from "./contract/operations.js";

/**
 * The inspected server as another client's configuration, for the page to copy: the URL
 * or the command, and each credential as a placeholder, never its value. A header's value
 * and a variable's stay with the inspector: the configuration names them and says where
 * the person puts their own (an environment variable the client reads, a prompt of VS
 * Code's, or text to replace in Claude Desktop's, which reads neither).
 */

/** What a configuration is made from: values are never given here, only names. */
export type ConfigSource =
  | { kind: "http"; url: string; sse: boolean; headers: string[] }
  | { kind: "stdio"; command: string; args: string[]; env: string[] };

/** `X-Api-Key` → `X_API_KEY`: a name an environment can hold. */
export const envName = (name: string): string =>
  name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

/** `X-Api-Key` → `x-api-key`: an id for VS Code's inputs. */
const inputId = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

const FILES: Record<ConfigFormat, string> = {
  "mcp.json": ".mcp.json in the project (Claude Code), or .cursor/mcp.json (Cursor)",
  "claude-desktop": "claude_desktop_config.json (Claude Desktop: Settings → Developer → Edit Config)",
  vscode: ".vscode/mcp.json in the project (VS Code)",
};

/** A server name clients accept: letters, digits, - and _. */
const entryName = (name: string | undefined) =>
  (name ?? "").replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "") || "server";

/**
 * `mcpkit` is how Claude Desktop's file starts mcpkit (it takes commands only, so a URL is
 * reached through `mcpkit serve proxy`), as mcpkit install writes it.
 */
export function clientConfig(
  format: ConfigFormat,
  serverName: string | undefined,
  source: ConfigSource,
  mcpkit: readonly [string, ...string[]],
): ClientConfig {
  const name = entryName(serverName);
  const placeholders: ClientConfig["placeholders"] = [];
  /** The placeholder for a secret named `secret` (a header or a variable), noted for the page. */
  const stand = (secret: string, what: string): string => {
    const placeholder =
      format === "vscode"
        ? `\${input:${inputId(secret)}}`
        : format === "mcp.json"
          ? `\${${envName(secret)}}`
          : `<your ${secret}>`;
    placeholders.push({
      placeholder,
      for:
        format === "vscode"
          ? `${what}: VS Code asks for it when it starts the server`
          : format === "mcp.json"
            ? `${what}: set ${envName(secret)} in the environment the client starts in`
            : `${what}: replace the placeholder with it (Claude Desktop reads no variables here)`,
    });
    return placeholder;
  };
  const entry = format === "claude-desktop" ? desktopEntry(source, stand, mcpkit) : typedEntry(format, source, stand);
  const inputs =
    format === "vscode" && placeholders.length > 0
      ? {
          inputs: placeholders.map(({ placeholder }) => {
            const id = placeholder.slice("${input:".length, -1);
            return { type: "promptString", id, description: `${id} for ${name}`, password: true };
          }),
        }
      : {};
  const root = format === "vscode" ? { ...inputs, servers: { [name]: entry } } : { mcpServers: { [name]: entry } };
  return { format, file: FILES[format], text: `${JSON.stringify(root, null, 2)}\n`, placeholders };
}

type Stand = (secret: string, what: string) => string;

/** .mcp.json's and VS Code's entry: a URL with its type, or a command. */
function typedEntry(format: ConfigFormat, source: ConfigSource, stand: Stand): Record<string, unknown> {
  if (source.kind === "http") {
    const headers = Object.fromEntries(source.headers.map((h) => [h, stand(h, `the ${h} header`)]));
    return {
      type: source.sse ? "sse" : "http",
      url: source.url,
      ...(source.headers.length > 0 && { headers }),
    };
  }
  const env = Object.fromEntries(source.env.map((v) => [v, stand(v, `the variable ${v}`)]));
  return {
    ...(format === "vscode" && { type: "stdio" }),
    command: source.command,
    args: source.args,
    ...(source.env.length > 0 && { env }),
  };
}

/** Claude Desktop's entry: a command; a URL is reached through `mcpkit serve proxy`. */
function desktopEntry(
  source: ConfigSource,
  stand: Stand,
  mcpkit: readonly [string, ...string[]],
): Record<string, unknown> {
  if (source.kind === "http") {
    const headers = source.headers.flatMap((h) => ["--header", `${h}: ${stand(h, `the ${h} header`)}`]);
    const [command, ...args] = mcpkit;
    return { command, args: [...args, "serve", "proxy", source.url, ...headers] };
  }
  const env = Object.fromEntries(source.env.map((v) => [v, stand(v, `the variable ${v}`)]));
  return { command: source.command, args: source.args, ...(source.env.length > 0 && { env }) };
}
