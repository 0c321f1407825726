import { readFileSync } from "node:fs";
import { sep } from "node:path";

/** A value of a configuration entry that cannot be used, and why. */
export class ConfigEntryError extends Error {
  /** "ConfigEntryError". */
  override name = "ConfigEntryError";
}

/** What `${…}` in a configuration's values may name. */
export interface VariableScope {
  /** `${workspaceFolder}`: the folder of the project the file belongs to; undefined outside one (then it is an error). */
  workspaceFolder: string | undefined;
  /** `${userHome}`. */
  home: string;
  /** `${VAR}` and `${env:VAR}`. */
  env: Readonly<Record<string, string | undefined>>;
  /** Whose environment `env` is, named when a variable is not set in it ("the gateway's environment"). */
  envName?: string;
}

const VARIABLE = /\$\{([^}]+)\}/g;

/**
 * A value with its variables replaced, as MCP clients replace them: `${VAR}`,
 * `${VAR:-default}`, `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, `${pathSeparator}`
 * (or `${/}`). A variable that is not set and has no default, or `${input:…}` (which only VS
 * Code can prompt for), is a ConfigEntryError.
 */
export function expandVariables(value: string, scope: VariableScope): string {
  const { workspaceFolder, home, env, envName } = scope;
  return value.replace(VARIABLE, (_whole, inner: string) => {
    if (inner === "workspaceFolder") {
      if (workspaceFolder === undefined)
        throw new ConfigEntryError(`\${workspaceFolder} is used outside a project's file`);
      return workspaceFolder;
    }
    if (inner === "userHome") return home;
    if (inner === "pathSeparator" || inner === "/") return sep;
    if (inner.startsWith("input:"))
      throw new ConfigEntryError(
        `\${${inner}} asks for a value only VS Code can prompt for: put the value in the file, or in a variable (\${env:NAME})`,
      );
    const at = inner.indexOf(":-");
    const [name, fallback] = inner.startsWith("env:")
      ? [inner.slice(4), undefined]
      : at === -1
        ? [inner, undefined]
        : [inner.slice(0, at), inner.slice(at + 2)];
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    throw new ConfigEntryError(`\${${inner}} refers to ${name}, which is not set${envName ? ` in ${envName}` : ""}`);
  });
}

/**
 * An env file's variables (VS Code's `envFile`, Docker's `env_file`): KEY=VALUE lines, blank
 * lines and # comments skipped, `export ` and matching quotes taken off. One that cannot be
 * read is a ConfigEntryError naming it as `what` ("its envFile", "the env file").
 */
export function readEnvFile(path: string, what = "the env file"): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigEntryError(`${what} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const env: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const raw = match[2] as string;
    env[match[1] as string] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return env;
}
