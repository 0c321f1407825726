// The Debian packages the cluster tests run (redis-server, nginx) and the shells the
// completion tests load their scripts into (zsh, fish): installed with apt-get,
// non-interactively, only when the binary is missing. Elsewhere (no apt-get) the tests
// that need them say which command to install.
import { spawnSync } from "node:child_process";

const PACKAGES = { "redis-server": "redis-server", nginx: "nginx", zsh: "zsh", fish: "fish" };

/** Binaries present on PATH or in /usr/sbin (nginx lives there). */
const present = (binary) =>
  !spawnSync(binary, ["-v"], { stdio: "ignore" }).error ||
  !spawnSync(`/usr/sbin/${binary}`, ["-v"], { stdio: "ignore" }).error;

export function ensureSystemTools(write = (line) => process.stdout.write(line)) {
  const missing = Object.entries(PACKAGES).filter(([binary]) => !present(binary));
  if (missing.length === 0) return true;
  if (spawnSync("apt-get", ["--version"], { stdio: "ignore" }).error) {
    write(`missing ${missing.map(([b]) => b).join(", ")} and no apt-get to install them\n`);
    return false;
  }
  const names = missing.map(([, pkg]) => pkg);
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
