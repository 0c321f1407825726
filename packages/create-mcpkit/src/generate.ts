import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { TEMPLATES, type TemplateName } from "./templates.js";
import { VERSIONS } from "./versions.js";
import { writeInside } from "./write-file.js";

/** What a project is made from. */
export interface Project {
  directory: string;
  template: TemplateName;
  name: string;
  description: string;
  mcpName?: string;
  /** package.json's author ("Name <email>"), from the git configuration, when there is one. */
  author?: string;
  /** Where mcpkit's own packages come from, when not the registry: `file:` specs of their tarballs. */
  localPackages?: Partial<Record<"mcpkit" | "@mcpkit/cli" | "@mcpkit/servers", string>>;
}

const TEMPLATE_ROOT = fileURLToPath(new URL("../templates/", import.meta.url));

/** npm leaves dot files such as .gitignore out of a published package: they are kept under another name. */
const RENAMED: Record<string, string> = { gitignore: ".gitignore" };

/** Parts of the README a template's layers give, and the mark in the common README each replaces. */
const README_PARTS: Record<string, string> = {
  "README.part.md": "<!-- template -->",
  "README.distribute.md": "<!-- distribute -->",
};

/** Files whose text holds placeholders; anything else (icon.png) is copied byte for byte. */
const TEXT = new Set([".ts", ".md", ".json", ".jsonc"]);

/** Writes the project's files; returns their paths relative to the directory, sorted. */
export function generate(project: Project): string[] {
  const template = TEMPLATES[project.template];
  const files = new Map<string, Buffer | string>();
  for (const layer of template.layers) {
    const root = join(TEMPLATE_ROOT, layer);
    for (const file of walk(root)) {
      const path = relative(root, file)
        .split(/[\\/]/)
        .map((part) => RENAMED[part] ?? part)
        .join("/");
      const content = readFileSync(file);
      files.set(path, TEXT.has(extname(file)) ? fill(content.toString("utf8"), project, extname(file)) : content);
    }
  }
  // A template's own parts of the README go where the common README marks their place.
  let readme = String(files.get("README.md"));
  for (const [file, mark] of Object.entries(README_PARTS)) {
    readme = readme.replace(mark, String(files.get(file) ?? "").trim());
    files.delete(file);
  }
  files.set("README.md", readme);
  files.set("package.json", `${JSON.stringify(manifest(project), null, 2)}\n`);
  mkdirSync(project.directory, { recursive: true });
  for (const [path, content] of files) writeInside(project.directory, path, content);
  return [...files.keys()].sort();
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * Replaces {{name}}, {{slug}} and {{description}}. In code the values land inside string
 * literals, so they are escaped as JSON strings are; in Markdown they are written as they are.
 */
function fill(text: string, project: Project, extension: string): string {
  const values: Record<string, string> = {
    name: project.name,
    slug: slugOf(project.name),
    description: project.description,
  };
  const quote = extension === ".md" ? (v: string) => v : (v: string) => JSON.stringify(v).slice(1, -1);
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    const value = values[key];
    return value === undefined ? whole : quote(value);
  });
}

/** A package name without its scope: fit for a URI's authority and a worker's name. */
export const slugOf = (name: string) => name.replace(/^@[^/]+\//, "");

function manifest(project: Project): Record<string, unknown> {
  const template = TEMPLATES[project.template];
  const pick = (names: readonly (keyof typeof VERSIONS)[]) =>
    Object.fromEntries(
      [...names].sort().map((name) => [name, project.localPackages?.[name as "mcpkit"] ?? VERSIONS[name]]),
    );
  const main = template.main;
  return {
    name: project.name,
    version: "0.1.0",
    description: project.description,
    ...(project.author !== undefined && { author: project.author }),
    ...(project.mcpName !== undefined && { mcpName: project.mcpName }),
    type: "module",
    ...(main && { bin: { [slugOf(project.name)]: main } }),
    files: ["dist", "!dist/**/*.test.*", "icon.png"],
    engines: { node: ">=20" },
    scripts: {
      build: "tsc",
      ...(main && { start: `node ${main}` }),
      dev: "mcpkit dev src/server.ts",
      test: "tsc && node --test",
      // The YAML tests against the server as a client starts it; its surface, to diff the next release with.
      "test:mcp": "mcpkit test",
      snapshot: "mcpkit snapshot --out mcp-snapshot.json -- mcpkit serve src/server.ts",
      bundle: "mcpkit bundle src/server.ts",
      // How the package's own command serves, for the registry: stdio, or HTTP on $PORT.
      ...(main && {
        "server-json": `mcpkit bundle src/server.ts --server-json${project.template === "stdio" ? "" : " --transport http"}`,
      }),
      ...(project.template === "workers" && { deploy: "npx wrangler deploy" }),
    },
    dependencies: pick(template.dependencies),
    devDependencies: {
      ...pick(template.devDependencies),
      // From tarballs, @mcpkit/cli's own dependency on @mcpkit/servers comes from one too, not the registry.
      ...(project.localPackages?.["@mcpkit/servers"] && {
        "@mcpkit/servers": project.localPackages["@mcpkit/servers"],
      }),
    },
    // @mcpkit/cli's optional dependencies build at install: esbuild (mcpkit dev and serve
    // load src/server.ts through it) and SQLite. npm 12 runs no install script unlisted here.
    allowScripts: { "better-sqlite3": true, esbuild: true },
  };
}
