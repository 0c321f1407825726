import { existsSync, realpathSync } from "node:fs";
import { delimiter, join, sep } from "node:path";
import { MCPKIT_BIN } from "./self.js";

const real = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/**
 * This mcpkit as a person types it in a shell, for a hint on the terminal: `npx mcpkit` when
 * an npm script runs the project's own (its node_modules/.bin is on PATH inside the script
 * only), `mcpkit` when the first mcpkit on PATH is this one (a global install), else this
 * Node and script, absolute (`/usr/bin/node /…/@mcpkit/cli/bin/mcpkit.js`), which always works.
 */
export function typedCommand(env: NodeJS.ProcessEnv = process.env, bin = MCPKIT_BIN): string[] {
  const self = real(bin);
  if (self === undefined) return [process.execPath, bin];
  const project = env.npm_config_local_prefix && real(env.npm_config_local_prefix);
  if (env.npm_lifecycle_event && project && self.startsWith(join(project, "node_modules") + sep))
    return ["npx", "mcpkit"];
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "" || !existsSync(join(dir, "mcpkit"))) continue;
    // The first one on PATH is what the shell runs: this one, or another.
    return real(join(dir, "mcpkit")) === self ? ["mcpkit"] : [process.execPath, bin];
  }
  return [process.execPath, bin];
}
