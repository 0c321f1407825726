import { createHash } from "node:crypto";
import { parseYaml } from "./yaml.js";

/**
 * The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): a skill is a
 * directory of files served as resources, `skill://<skill-path>/<file-path>`, whose
 * `SKILL.md` begins with YAML frontmatter. What both sides need: the wire types, the
 * digest, and the frontmatter parser.
 */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

export const SKILL_FILE = "SKILL.md";

/** A directory resource (SEP-2640 §Directory resources). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/** One file of a skill: its resource URI, `sha256:{hex}` of its raw bytes, and their length. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A `skills/list` entry (and the `skill` of `skills/get`). */
export interface SkillEntry {
  /** The resource URI of the skill's SKILL.md. */
  uri: string;
  /** The SKILL.md frontmatter, verbatim, as JSON. */
  frontmatter: SkillFrontmatter;
  /** Every file of the skill, SKILL.md included, or "dynamic" for generated skills. */
  resources: SkillResource[] | "dynamic";
}

export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

/** SEP-2640 §Integrity and verification: SHA-256 of the raw bytes, `sha256:` and 64 lowercase hex digits. */
export function skillDigest(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Agent Skills naming rules: 1–64 lowercase letters, digits and single hyphens, not at either end. */
export const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The `---` block a SKILL.md begins with, undefined when it has none. */
export function frontmatterBlock(text: string): string | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(body)?.[1];
}

/**
 * The YAML frontmatter a SKILL.md begins with, as a plain object; undefined when the file
 * has no `---` block or the block is not a YAML mapping.
 */
export async function parseFrontmatter(text: string): Promise<Record<string, unknown> | undefined> {
  const block = frontmatterBlock(text);
  if (block === undefined) return undefined;
  let value: unknown;
  try {
    // A server's text: read in linear time, its aliases bounded (yaml.ts, which loads the
    // parser on first use: only skill publishers and readers pay for it).
    value = await parseYaml(block);
  } catch {
    // Unreadable YAML: no frontmatter, which the caller reports as a skill it cannot serve.
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Deep equality of two JSON values (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameJson(left[key] ?? null, right[key] ?? null)) return false;
  return true;
}

/** The skill's directory: its SKILL.md URI without `/SKILL.md`. */
export const skillRoot = (skillUri: string) => skillUri.slice(0, -(SKILL_FILE.length + 1));
