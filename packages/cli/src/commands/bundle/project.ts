import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { UsageError } from "../usage-error.js";

/** What the project's package.json says about the server (every field optional). */
export interface Project {
  /** The folder of the package.json (or of the module, without one). */
  root: string;
  name?: string;
  version?: string;
  description?: string;
  author?: { name: string; email?: string; url?: string };
  license?: string;
  homepage?: string;
  repository?: string;
  keywords?: string[];
  /** Its name in the MCP Registry (package.json "mcpName"). */
  mcpName?: string;
}

/** The package.json nearest above `dir`, read into a Project. */
export function readProject(dir: string): Project {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, "package.json");
    if (existsSync(file)) return fromManifest(at, JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>);
    if (dirname(at) === at) return { root: dir };
  }
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

function fromManifest(root: string, pkg: Record<string, unknown>): Project {
  const repository =
    typeof pkg.repository === "string" ? pkg.repository : text((pkg.repository as { url?: unknown } | undefined)?.url);
  const author = authorOf(pkg.author);
  const project: Project = { root };
  const set = <K extends keyof Project>(key: K, value: Project[K] | undefined) => {
    if (value !== undefined) project[key] = value;
  };
  set("name", text(pkg.name));
  set("version", text(pkg.version));
  set("description", text(pkg.description));
  set("author", author);
  set("license", text(pkg.license));
  set("homepage", text(pkg.homepage));
  set("repository", repository && normalizeRepository(repository));
  set(
    "keywords",
    Array.isArray(pkg.keywords) ? pkg.keywords.filter((k): k is string => typeof k === "string") : undefined,
  );
  set("mcpName", text(pkg.mcpName));
  return project;
}

/** "Name <email> (url)" or { name, email, url }. */
function authorOf(value: unknown): Project["author"] {
  if (typeof value === "string" && value.trim() !== "") {
    const match = /^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?$/.exec(value.trim());
    const name = match?.[1]?.trim() || value.trim();
    return { name, ...(match?.[2] && { email: match[2] }), ...(match?.[3] && { url: match[3] }) };
  }
  if (typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string") {
    const { name, email, url } = value as { name: string; email?: unknown; url?: unknown };
    return { name, ...(typeof email === "string" && { email }), ...(typeof url === "string" && { url }) };
  }
  return undefined;
}

/** git+https://github.com/a/b.git and github:a/b as https://github.com/a/b. */
function normalizeRepository(url: string): string {
  const short = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(url);
  if (short) return `https://github.com/${short[1]}`;
  return url
    .replace(/^git\+/, "")
    .replace(/\.git$/, "")
    .replace(/^git:\/\//, "https://");
}

/**
 * Who the bundle names as its author: package.json's author, else the git user of the
 * project's folder (GIT_AUTHOR_NAME, else user.name, and the email likewise: as a commit
 * would name them). Never the
 * account running mcpkit (in a container, "root"): without either, the bundle is refused
 * until one is given.
 */
export function bundleAuthor(project: Project): NonNullable<Project["author"]> {
  if (project.author) return project.author;
  const git = (key: string) => {
    const run = spawnSync("git", ["config", "--get", key], { cwd: project.root, encoding: "utf8" });
    return run.status === 0 && run.stdout.trim() !== "" ? run.stdout.trim() : undefined;
  };
  // Git's own order: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL before the configuration.
  const name = process.env.GIT_AUTHOR_NAME?.trim() || git("user.name");
  if (name) {
    const email = process.env.GIT_AUTHOR_EMAIL?.trim() || git("user.email");
    return { name, ...(email && { email }) };
  }
  throw new UsageError(
    'A bundle names its author: add "author": "Your Name <you@example.com>" to package.json' +
      `${project.name ? "" : " (or make one, npm init -y)"}, or set git config user.name`,
  );
}

/**
 * The bundle's name: the package's (without its scope), and the module's file name after it
 * when the module is not the package's one server (src/server.ts, index.ts, or named as the
 * package): two modules of one folder make two bundles, never one file overwritten.
 */
export function bundleName(project: Project, module: string | undefined, serverName: string): string {
  const name = slug(project.name ?? serverName);
  if (module === undefined) return name;
  const own = slug(basename(module, extname(module)));
  return ["server", "index", name].includes(own) ? name : `${name}-${own}`;
}

/** A package name without its scope, fit for file names. */
export const slug = (name: string) => name.replace(/^@[^/]+\//, "").replace(/[^A-Za-z0-9._-]+/g, "-");
