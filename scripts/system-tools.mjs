// The Debian packages the tests run: redis-server and nginx (the cluster tests), chromium
// (the inspector's browser tests), zsh and fish (the completion tests load their scripts
// into them). Installed with apt-get, non-interactively, only when the
// binary is missing. Elsewhere (no apt-get) the tests that need them say which command to install.
import { spawnSync } from "node:child_process";

/** binary -> [Debian package, the argument that makes it print its version and exit]. */
const PACKAGES = {
  "redis-server": ["redis-server", "-v"],
  nginx: ["nginx", "-v"],
  chromium: ["chromium", "--version"],
  zsh: ["zsh", "--version"],
  fish: ["fish", "--version"],
};

/** Binaries present on PATH or in /usr/sbin (nginx lives there). */
const present = (binary, versionArg) =>
  !spawnSync(binary, [versionArg], { stdio: "ignore" }).error ||
  !spawnSync(`/usr/sbin/${binary}`, [versionArg], { stdio: "ignore" }).error;

export function ensureSystemTools(write = (line) => process.stdout.write(line)) {
  const missing = Object.entries(PACKAGES).filter(([binary, [, versionArg]]) => !present(binary, versionArg));
  if (missing.length === 0) return true;
  if (spawnSync("apt-get", ["--version"], { stdio: "ignore" }).error) {
    write(`missing ${missing.map(([b]) => b).join(", ")} and no apt-get to install them\n`);
    return false;
  }
  const names = missing.map(([, [pkg]]) => pkg);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const asRoot = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args) => {
    const [command, ...rest] = [...asRoot, ...args];
    return spawnSync(command, rest, { stdio: "inherit", env }).status === 0;
  };
  write(`installing ${names.join(", ")} (apt-get)\n`);
  return (
    run(["apt-get", "install", "-y", "--no-install-recommends", ...names]) ||
    (run(["apt-get", "update"]) && run(["apt-get", "install", "-y", "--no-install-recommends", ...names]))
  );
}
