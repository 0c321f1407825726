import { isAbsolute, resolve } from "node:path";
import { ConfigEntryError, expandVariables, readEnvFile } from "@mcpkit/servers/config";

export { ConfigEntryError };

/** How to reach a server named in a configuration file: the command that starts it, or its URL. */
export type ServerSpec =
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { transport: "http" | "sse"; url: string; headers: Record<string, string> };

/** What the values of an entry may refer to: `${workspaceFolder}`, `${userHome}`, variables. */
export interface Expansion {
  /** The project folder the file belongs to, if any. */
  project?: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const strings = (value: unknown, what: string): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string"))
    throw new ConfigEntryError(`"${what}" must be a list of strings`);
  return value;
};

const stringMap = (value: unknown, what: string): Record<string, string> => {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new ConfigEntryError(`"${what}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")
      throw new ConfigEntryError(`"${what}.${key}" must be a string`);
    out[key] = String(v);
  }
  return out;
};

/**
 * An entry as the clients write it, read into a ServerSpec: `command`/`args`/`env`
 * (every client), `url` with `type` "http", "streamable-http" or "sse" (Claude Code, VS
 * Code; Cursor's `url` alone), `headers`, VS Code's `cwd` and `envFile`. Variables are
 * expanded as the clients do: `${VAR}`, `${VAR:-default}`, `${env:VAR}`,
 * `${workspaceFolder}`, `${userHome}`, `${pathSeparator}`.
 */
export function serverSpec(entry: unknown, expansion: Expansion): ServerSpec {
  if (!isRecord(entry)) throw new ConfigEntryError("an entry must be an object");
  const x = (value: string) => expand(value, expansion);
  const type = typeof entry.type === "string" ? entry.type : undefined;
  if (typeof entry.url === "string" || (type !== undefined && type !== "stdio")) {
    if (typeof entry.url !== "string") throw new ConfigEntryError(`a "${type}" entry needs a "url"`);
    const transport = type === "sse" ? "sse" : "http";
    if (type !== undefined && !["http", "streamable-http", "streamableHttp", "sse"].includes(type))
      throw new ConfigEntryError(`"type": "${type}" is not a transport mcpkit knows (stdio, http, sse)`);
    const headers = Object.fromEntries(
      Object.entries(stringMap(entry.headers, "headers")).map(([name, value]) => [name, x(value)]),
    );
    return { transport, url: x(entry.url), headers };
  }
  if (typeof entry.command !== "string" || entry.command === "")
    throw new ConfigEntryError('an entry needs a "command" (or a "url")');
  const env: Record<string, string> = {};
  if (typeof entry.envFile === "string")
    Object.assign(env, readEnvFile(resolveIn(x(entry.envFile), expansion), "its envFile"));
  for (const [key, value] of Object.entries(stringMap(entry.env, "env"))) env[key] = x(value);
  const cwd = typeof entry.cwd === "string" ? resolveIn(x(entry.cwd), expansion) : expansion.project;
  return {
    transport: "stdio",
    command: x(entry.command),
    args: strings(entry.args, "args").map(x),
    env,
    ...(cwd !== undefined && { cwd }),
  };
}

const resolveIn = (path: string, expansion: Expansion) =>
  isAbsolute(path) ? path : resolve(expansion.project ?? process.cwd(), path);

/** Replaces the variables a value refers to (@mcpkit/servers/config); `${workspaceFolder}` is the project's folder. */
const expand = (value: string, { project, home, env }: Expansion): string =>
  expandVariables(value, { workspaceFolder: project, home, env });
