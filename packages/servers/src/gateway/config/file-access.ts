import { statSync } from "node:fs";

/**
 * Why a configuration file must not be used as it is, or undefined. The file names
 * commands the gateway runs and where its credentials go, so whoever can edit it runs
 * commands as the gateway: one that others may write (group or world writable, on systems
 * with such permissions) is refused, at start and at every reload; so is such an env file
 * (a variable such as NODE_OPTIONS runs code too).
 */
export function fileAccessProblem(path: string, names = "the commands the gateway runs"): string | undefined {
  if (process.platform === "win32") return undefined;
  const { mode } = statSync(path);
  if ((mode & 0o022) === 0) return undefined;
  const who = mode & 0o002 ? "anyone on this machine" : "its group";
  return `${path} can be written by ${who}, and it names ${names}: make it writable by its owner only (chmod go-w ${path})`;
}
