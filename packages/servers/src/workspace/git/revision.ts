import { WorkspaceError } from "../errors.js";

/** Branch names, tags, hashes, ranges and rev expressions (origin/main, HEAD~3, a..b, v1.0^{commit}, @{u}). */
const REVISION = /^[A-Za-z0-9._/@{}~^+-]+$/;

/**
 * A revision argument from the client. A leading "-" would make it an option
 * (`--output=FILE` writes a file), so it is refused here; every command also puts
 * `--end-of-options` before revisions.
 */
export function checkRevision(value: string, what = "revision"): string {
  if (value.length === 0 || value.length > 200) throw new WorkspaceError(`The ${what} must be 1–200 characters`);
  if (value.startsWith("-")) throw new WorkspaceError(`Refused: the ${what} "${value}" starts with "-"`);
  if (!REVISION.test(value)) {
    throw new WorkspaceError(`Refused: "${value}" is not a ${what} name`);
  }
  return value;
}
