import { readFileSync } from "node:fs";
import { sep } from "node:path";

/** What values in the file may refer to: the file's folder, the home folder, the gateway's environment. */
export interface Expansion {
  folder: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

const VARIABLE = /\$\{([^}]+)\}/g;

/**
 * A value with its variables replaced, as MCP clients replace them: `${VAR}`,
 * `${VAR:-default}`, `${env:VAR}`, `${workspaceFolder}` (the file's folder), `${userHome}`,
 * `${pathSeparator}`. A variable that is not set and has no default is an error.
 */
export function expand(value: string, { folder, home, env }: Expansion): string {
  return value.replace(VARIABLE, (_whole, inner: string) => {
    if (inner === "workspaceFolder") return folder;
    if (inner === "userHome") return home;
    if (inner === "pathSeparator" || inner === "/") return sep;
    if (inner.startsWith("input:"))
      throw new Error(`\${${inner}} asks for a value only VS Code can prompt for: use \${env:NAME}`);
    const at = inner.indexOf(":-");
    const [name, fallback] = inner.startsWith("env:")
      ? [inner.slice(4), undefined]
      : at === -1
        ? [inner, undefined]
        : [inner.slice(0, at), inner.slice(at + 2)];
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    throw new Error(`\${${inner}} refers to ${name}, which is not set in the gateway's environment`);
  });
}

/** KEY=VALUE lines: blank lines and # comments skipped, `export ` and matching quotes taken off. */
export function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`the env file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
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
