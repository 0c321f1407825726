#!/usr/bin/env node
// The public API of every entry point of `mcpkit`, `@mcpkit/servers` and `@mcpkit/redis`, as API Extractor
// reports it from the built declarations (dist/**/*.d.ts): one file per entry in api/.
// `npm run api` writes them; `--check` (the test in test/lint/api-report.test.ts) compares
// and says which entries changed. Run `npm run build` first when dist is stale.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from "@microsoft/api-extractor";

/** @typedef {{ specifier: string; packageFolder: string; declarations: string; report: string }} Entry */
/** @typedef {Entry & { text: string }} Report */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "api");
const PACKAGES = ["packages/mcpkit", "packages/servers", "packages/redis"];

/**
 * Each entry point: its import specifier, its built declarations, and its report's file name.
 * @returns {Entry[]}
 */
export function entryPoints() {
  return PACKAGES.flatMap((dir) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8"));
    return Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === "object" && target.types)
      .map(([subpath, target]) => {
        const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
        return {
          specifier,
          packageFolder: join(ROOT, dir),
          declarations: join(ROOT, dir, target.types),
          report: `${specifier.replace(/^@/, "").replaceAll("/", "-")}.api.md`,
        };
      });
  });
}

/** @param {Entry} entry @param {string} tempFolder */
function configFor(entry, tempFolder) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.packageFolder,
      mainEntryPointFilePath: entry.declarations,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: "es2022",
            module: "nodenext",
            moduleResolution: "nodenext",
            lib: ["es2023", "dom"],
            types: ["node"],
            typeRoots: [join(ROOT, "node_modules/@types")],
            skipLibCheck: true,
            strict: true,
          },
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder: tempFolder,
        reportTempFolder: tempFolder,
        includeForgottenExports: false,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // Release tags and TSDoc style are not this project's conventions; types an entry
        // uses without exporting them are named in the report, where a reviewer sees them.
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.None },
          "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
        },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      },
    },
    configObjectFullPath: join(entry.packageFolder, "api-extractor.json"),
    packageJsonFullPath: join(entry.packageFolder, "package.json"),
  });
}

/**
 * The report of each entry, as API Extractor writes it (one compiler program for all of them).
 * @returns {Report[]}
 */
export function reports() {
  const entries = entryPoints();
  const temp = mkdtempSync(join(tmpdir(), "mcpkit-api-"));
  try {
    const configs = entries.map((entry) => configFor(entry, temp));
    const [first] = configs;
    if (!first) throw new Error("No entry points");
    const compilerState = CompilerState.create(first, {
      additionalEntryPoints: configs.map((c) => c.mainEntryPointFilePath),
    });
    return entries.map((entry, i) => {
      const result = Extractor.invoke(configs[i] ?? first, {
        localBuild: true,
        compilerState,
        showVerboseMessages: false,
        messageCallback: (message) => {
          // Progress notes are not news; everything else is printed.
          if (message.logLevel === "info" || message.logLevel === "verbose") message.handled = true;
        },
      });
      if (!result.succeeded) throw new Error(`API Extractor failed on ${entry.specifier}`);
      const text = readFileSync(join(temp, entry.report), "utf8")
        .replaceAll("\r\n", "\n")
        // The report names the package folder's package.json name: use the entry's own name.
        .replace(/^## API Report File for "[^"]*"/m, `## API Report File for "${entry.specifier}"`)
        // A warning it cannot attach to a declaration names a source line: any edit above it
        // would change the report, so only the warnings attached to declarations are kept.
        .replace(/^\/\/ \S+:\d+:\d+ - \(ae-[^\n]*\n/gm, "")
        .replace("// Warnings were encountered during analysis:\n//\n\n", "");
      return { ...entry, text };
    });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** @param {string} path */
function read(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The reports that differ from the files in `folder` (missing ones included).
 * @param {Report[]} made
 */
export function changedReports(made, folder = OUT) {
  return made.filter((report) => read(join(folder, report.report)) !== report.text);
}

/** Says what changed, and what to do. @param {Report[]} changed */
export const changeMessage = (changed) =>
  `The public API changed: ${changed.map((r) => `api/${r.report} (${r.specifier})`).join(", ")}.\n` +
  "Run `npm run api` to update the reports, and check that the diff says what you meant to change.\n";

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const changed = changedReports(reports());
  if (process.argv.includes("--check")) {
    if (changed.length > 0) {
      process.stderr.write(changeMessage(changed));
      process.exitCode = 1;
    }
  } else {
    for (const report of changed) writeFileSync(join(OUT, report.report), report.text);
    process.stdout.write(
      changed.length === 0 ? "api/: no change\n" : `api/: wrote ${changed.map((r) => r.report).join(", ")}\n`,
    );
  }
}
