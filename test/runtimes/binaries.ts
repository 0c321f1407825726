import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { runtimeHome } from "../../scripts/test-packages.mjs";

/**
 * The runtimes the tests run mcpkit on: the npm packages `bun`, `deno` and `workerd`,
 * installed on first use into node_modules/.cache (scripts/test-packages.mjs), not
 * dependencies of the workspace. Each ships its binary in an optional package per
 * platform, and install scripts do not run there: the binary is taken from the platform
 * package itself. A runtime that cannot be had fails the test that needs it, saying so:
 * never a silent skip.
 */
export type Runtime = "bun" | "deno" | "workerd";

const exe = platform() === "win32" ? ".exe" : "";

/** Finds packages as the runtime's own folder sees them. */
function resolverFor(runtime: Runtime) {
  const require = createRequire(join(runtimeHome(runtime), "package.json"));
  return {
    require,
    packageDir(name: string) {
      try {
        return dirname(require.resolve(`${name}/package.json`));
      } catch {
        return undefined;
      }
    },
  };
}

/** esbuild is a dependency of the workspace: found from here. */
const fromHere = {
  packageDir(name: string) {
    try {
      return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
    } catch {
      return undefined;
    }
  },
};

function candidates(runtime: Runtime): string[] {
  const os = platform();
  const cpu = arch();
  const found: (string | undefined)[] = [];
  const { require, packageDir } = resolverFor(runtime);
  const main = packageDir(runtime);
  if (runtime === "bun") {
    const bunOs = os === "win32" ? "windows" : os;
    const bunCpu = cpu === "arm64" ? "aarch64" : cpu;
    found.push(main && join(main, "bin", "bun.exe"));
    for (const suffix of ["", "-musl", "-baseline"]) {
      const dir = packageDir(`@oven/bun-${bunOs}-${bunCpu}${suffix}`);
      found.push(dir && join(dir, "bin", `bun${exe}`));
    }
  } else if (runtime === "deno") {
    found.push(main && join(main, `deno${exe}`));
    const dir = packageDir(`@deno/${os}-${cpu}${os === "linux" ? "-glibc" : ""}`);
    found.push(dir && join(dir, `deno${exe}`));
  } else {
    try {
      found.push((require("workerd") as { default: string }).default);
    } catch {
      // Reported below with the other places tried.
    }
  }
  return found.filter((path): path is string => path !== undefined);
}

/** esbuild, which bundles the worker for workerd as wrangler does (its native binary where it can). */
export function esbuildBinary(): string {
  const dir = fromHere.packageDir(`@esbuild/${platform()}-${arch()}`);
  const native = dir && join(dir, platform() === "win32" ? "esbuild.exe" : join("bin", "esbuild"));
  if (native && existsSync(native)) return native;
  const main = fromHere.packageDir("esbuild");
  const launcher = main && join(main, "bin", "esbuild");
  if (launcher && existsSync(launcher)) return launcher;
  throw new Error(
    `esbuild is not installed for ${platform()}-${arch()}: the worker is bundled with it. Run \`npm install\`.`,
  );
}

const cache = new Map<Runtime, string>();

/** The path of a runtime's binary that answers `--version`; throws saying what is missing. */
export function runtimeBinary(runtime: Runtime): string {
  const known = cache.get(runtime);
  if (known) return known;
  const tried = candidates(runtime);
  for (const path of tried) {
    if (!existsSync(path)) continue;
    const probe = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 30_000 });
    if (probe.status === 0) {
      cache.set(runtime, path);
      return path;
    }
  }
  throw new Error(
    `${runtime} is not installed for ${platform()}-${arch()}: the "${runtime}" package brings its binary ` +
      `in an optional package for this platform, and none answered \`--version\`` +
      `${tried.length > 0 ? ` (tried ${tried.join(", ")})` : ""}. Remove node_modules/.cache/mcpkit-runtimes ` +
      `and run the test again; if ${runtime} publishes no build for this platform, this test cannot pass here.`,
  );
}
