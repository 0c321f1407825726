#!/usr/bin/env node
// Builds the inspector's page (src/inspector/ui) into dist/inspector-ui: one script, one
// stylesheet and index.html, with Preact bundled in. Run by `npm run build`; nothing is
// fetched at run time. `--check` type-checks the page first; `--report` prints its weight.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const require = createRequire(import.meta.url);
const cli = fileURLToPath(new URL("..", import.meta.url));
const ui = join(cli, "src/inspector/ui");
const out = join(cli, "dist/inspector-ui");

if (process.argv.includes("--check")) {
  const tsc = join(dirname(require.resolve("typescript/package.json")), "bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", join(ui, "tsconfig.json")], { stdio: "inherit" });
  } catch {
    process.exit(1);
  }
}

const esbuild = await import("esbuild");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { app: join(ui, "main.tsx") },
  bundle: true,
  minify: true,
  format: "esm",
  target: ["chrome110", "firefox115", "safari16"],
  jsx: "automatic",
  jsxImportSource: "preact",
  // The library's own sources (its "source" export), so the page bundles only what it uses
  // (UriTemplate), not the built chunks made for Node. The type check above reads its types.
  conditions: ["source"],
  outdir: out,
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(join(ui, "index.html"), join(out, "index.html"));

if (process.argv.includes("--report")) {
  let total = 0;
  for (const name of ["index.html", "app.js", "app.css"]) {
    const body = readFileSync(join(out, name));
    const gz = gzipSync(body, { level: 9 }).length;
    total += gz;
    process.stdout.write(
      `${name.padEnd(11)} ${(body.length / 1024).toFixed(1).padStart(6)} KiB, gzipped ${(gz / 1024).toFixed(1)} KiB\n`,
    );
  }
  process.stdout.write(`page weight, gzipped: ${(total / 1024).toFixed(1)} KiB\n`);
}
