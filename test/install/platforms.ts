/**
 * What `npm install` would resolve on another platform, read from the lockfile and the
 * manifests alone. `npm install --os/--cpu` only changes which optional dependencies are
 * fetched, so a platform-locked package is found by its `os`/`cpu` fields (npm's own
 * rules: a list of allowed names, `!name` excludes one).
 */

export interface Platform {
  os: string;
  cpu: string;
}

interface LockEntry {
  version?: string;
  os?: string[] | string;
  cpu?: string[] | string;
  optional?: boolean;
  devOptional?: boolean;
  optionalDependencies?: Record<string, string>;
  link?: boolean;
}

export interface Lockfile {
  packages: Record<string, LockEntry>;
}

/** npm-install-checks' rule for one `os` or `cpu` field. */
function allows(field: string[] | string | undefined, value: string): boolean {
  if (field === undefined) return true;
  const names = Array.isArray(field) ? field : [field];
  if (names.includes(`!${value}`)) return false;
  const allowed = names.filter((name) => !name.startsWith("!"));
  return allowed.length === 0 || allowed.includes(value) || allowed.includes("any");
}

export const runsOn = (entry: { os?: string[] | string; cpu?: string[] | string }, platform: Platform) =>
  allows(entry.os, platform.os) && allows(entry.cpu, platform.cpu);

/**
 * The lockfile's packages that `npm install` would have to install on `platform` but that
 * refuse it (EBADPLATFORM): any that is not optional. An optional one is skipped instead.
 */
export function lockedOut(lock: Lockfile, platform: Platform): string[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== "" && !entry.optional && !runsOn(entry, platform))
    .map(([path, entry]) => `${path}@${entry.version}`);
}

/**
 * Optional dependencies the lockfile has no entry for. npm does not add them when it
 * installs from the lockfile on another platform (npm/cli#4828), so that platform's
 * binary (a formatter's, a bundler's) would be missing there.
 */
export function missingOptionals(lock: Lockfile): string[] {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages))
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      const nested = path === "" ? `node_modules/${name}` : `${path}/node_modules/${name}`;
      if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(`${path} -> ${name}`);
    }
  return missing;
}
