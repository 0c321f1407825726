import { existsSync, readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, join } from "node:path";

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

/** Who the bundle names as its author when package.json does not: the user running mcpkit. */
export function fallbackAuthor(): { name: string } {
  try {
    return { name: userInfo().username };
  } catch {
    return { name: "unknown" };
  }
}

/** A package name without its scope, fit for file names. */
export const slug = (name: string) => name.replace(/^@[^/]+\//, "").replace(/[^A-Za-z0-9._-]+/g, "-");
