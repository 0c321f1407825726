#!/usr/bin/env node
// The JavaScript of `mcpkit`: every entry point in package.json's `exports`, bundled from
// its source (the `source` condition) to the file its `default` condition names, with the
// code entry points share in `dist/chunks/` (so a class is one class whichever entry a
// program imports it from). tsc writes only the declarations (dist/**/*.d.ts).
//
// Why: Node 20 reads, compiles and links every ES module on its own, about half a
// millisecond each here, and a tools-only stdio server imported about a hundred of them:
// that was most of its start-up beyond Node's own. What a server loads on first use (a
// dynamic `import()`) becomes a chunk of its own, loaded when it is used. Dependencies
// stay imports of their packages. Source maps point at src/, which the package ships.
//
// `node scripts/bundle.mjs [--force]` (run by `npm run build` after tsc); `bundleIsStale()`
// tells it and the test setup when a source file is newer than the bundles.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The package bundled, and the file whose time says when it last was. */
export const BUNDLED = join(ROOT, "packages/mcpkit");
const SRC = join(BUNDLED, "src");
const STAMP = join(BUNDLED, "dist/index.js");

/**
 * esbuild puts the code shared by entry points in one chunk per set of entry points that
 * use it: with thirteen entry points and the parts loaded on first use, a stdio server
 * loaded some thirty files. So each layer below is folded into one chunk: every entry
 * point that uses enough of it imports all of it (see `folds`). The foundation is what
 * both sides stand on; the server and client layers are what `mcpkit/server` and
 * `mcpkit/client` load, less the foundation.
 */
const FOUNDATION = ["jsonrpc/", "protocol/", "schema/", "connection/", "content.ts", "transports/transport.ts"];
const LAYERS = [
  { name: "foundation", modules: (/** @type {Graph} */ g) => g.foundation, share: 0 },
  { name: "server", modules: (/** @type {Graph} */ g) => g.closure(g.entry("./server")), share: 0.5 },
  { name: "client", modules: (/** @type {Graph} */ g) => g.closure(g.entry("./client")), share: 0.5 },
];

/** @typedef {{ bytes: number, imports: { path: string, kind: string }[] }} Input */

/**
 * package.json's entry points: output path (relative to dist, no extension) to source file.
 * @returns {Record<string, string>}
 */
function entryPoints() {
  const pkg = JSON.parse(readFileSync(join(BUNDLED, "package.json"), "utf8"));
  /** @type {Record<string, string>} */
  const entries = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target !== "object") continue;
    const out = target.default.replace(/^\.\/dist\//, "").replace(/\.js$/, "");
    const expected = target.source.replace(/^\.\/src\//, "").replace(/\.ts$/, "");
    // outbase keeps src/'s folders, so each entry lands where its `default` says.
    if (out !== expected)
      throw new Error(`exports["${subpath}"]: default ${target.default} is not the bundle of ${target.source}`);
    entries[out] = join(BUNDLED, target.source);
  }
  return entries;
}

/** The module graph of one build (absolute paths), from esbuild's metafile. */
class Graph {
  /** @param {import("esbuild").Metafile} meta @param {Record<string, string>} entries */
  constructor(meta, entries) {
    this.entries = entries;
    /** @type {Map<string, Input>} */
    this.inputs = new Map();
    for (const [path, input] of Object.entries(meta.inputs)) {
      const imports = input.imports
        .filter((i) => !i.external)
        .map((i) => ({ kind: i.kind, path: resolve(BUNDLED, i.path) }));
      this.inputs.set(resolve(BUNDLED, path), { bytes: input.bytes, imports });
    }
    /** Modules imported with `import()`: esbuild makes each an entry point of its own. */
    this.lazy = new Set(
      [...this.inputs.values()].flatMap((i) => i.imports.filter((x) => x.kind === "dynamic-import").map((x) => x.path)),
    );
    const reached = new Set(Object.values(entries).flatMap((e) => [...this.closure(e)]));
    const prefixes = FOUNDATION.map((p) => join(SRC, p));
    this.foundation = new Set(
      [...reached].filter((m) => prefixes.some((p) => m.startsWith(p))).flatMap((m) => [...this.closure(m)]),
    );
  }

  /** @param {string} subpath */
  entry(subpath) {
    return join(BUNDLED, `src/${subpath.slice(2)}/index.ts`);
  }

  /** What loading `root` loads: it and its static imports, transitively. @param {string} root */
  closure(root) {
    const seen = new Set([root]);
    for (const module of seen)
      for (const i of this.inputs.get(module)?.imports ?? []) if (i.kind === "import-statement") seen.add(i.path);
    return seen;
  }

  /** @param {Iterable<string>} modules */
  bytes(modules) {
    let total = 0;
    for (const m of modules) total += this.inputs.get(m)?.bytes ?? 0;
    return total;
  }
}

/**
 * For each entry point (public, or a module loaded on first use), the modules of the layers
 * folded into it. A public entry point takes a layer when it already loads at least `share`
 * of it (by bytes); a module loaded on first use takes every layer it touches, which costs
 * nothing: what imports it has loaded those layers already.
 * @param {Graph} graph
 */
function folds(graph) {
  /** @type {Map<string, Set<string>>} */
  const fold = new Map();
  const taken = new Set();
  for (const layer of LAYERS) {
    const modules = [...layer.modules(graph)].filter((m) => !taken.has(m));
    for (const m of modules) taken.add(m);
    const total = graph.bytes(modules);
    for (const entry of [...Object.values(graph.entries), ...graph.lazy]) {
      const loads = graph.closure(entry);
      const used = graph.bytes(modules.filter((m) => loads.has(m)));
      if (used === 0 || (!graph.lazy.has(entry) && used < total * layer.share)) continue;
      const into = fold.get(entry) ?? fold.set(entry, new Set()).get(entry);
      for (const m of modules) if (m !== entry) into?.add(m);
    }
  }
  return fold;
}

/** Removes the JavaScript of an earlier build (bundles, chunks, or tsc's per-module files). @param {string} dir */
function removeScripts(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeScripts(path);
    else if (entry.name.endsWith(".js") || entry.name.endsWith(".js.map")) rmSync(path);
  }
}

export async function bundle() {
  const esbuild = await import("esbuild");
  const dist = join(BUNDLED, "dist");
  const entries = entryPoints();
  /** @type {import("esbuild").BuildOptions} */
  const options = {
    absWorkingDir: BUNDLED,
    entryPoints: entries,
    outdir: dist,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    sourcesContent: false,
    tsconfig: join(BUNDLED, "tsconfig.json"),
    logLevel: "warning",
  };
  const planned = await esbuild.build({ ...options, write: false, metafile: true });
  const fold = folds(new Graph(planned.metafile, entries));
  removeScripts(dist);
  await esbuild.build({
    ...options,
    plugins: [
      {
        name: "fold-layers",
        setup(build) {
          build.onLoad({ filter: /\.ts$/ }, (args) => {
            const modules = fold.get(args.path);
            if (!modules) return undefined;
            // Side-effect imports: what the entry point imports is unchanged.
            const imports = [...modules].map((m) => `import ${JSON.stringify(m)};`).join("\n");
            return {
              contents: `${readFileSync(args.path, "utf8")}\n${imports}\n`,
              loader: "ts",
              resolveDir: dirname(args.path),
            };
          });
        },
      },
    ],
  });
}

/** @param {string} dir @returns {number} */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether a source file (or package.json, or this script) changed since the last bundle. */
export function bundleIsStale() {
  if (!existsSync(STAMP)) return true;
  const inputs = Math.max(
    newestSource(SRC),
    statSync(join(BUNDLED, "package.json")).mtimeMs,
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
  return inputs > statSync(STAMP).mtimeMs;
}

// Like tsc -b, a build with nothing new leaves the bundles alone: a bundle removes the old
// files first, and a program starting from them meanwhile (a test beside `npm run release`)
// would find them missing. `--force` bundles anyway.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  if (process.argv.includes("--force") || bundleIsStale()) {
    await bundle();
    process.stdout.write(`bundled ${relative(ROOT, BUNDLED)} in ${Math.round(performance.now() - started)} ms\n`);
  } else process.stdout.write(`${relative(ROOT, BUNDLED)}: bundles up to date\n`);
}
