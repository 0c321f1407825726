import {
  parseFrontmatter,
  SKILL_FILE,
  SKILL_NAME,
  type SkillEntry,
  type SkillFrontmatter,
  skillDigest,
} from "../../protocol/skills.js";
import type { Keyed } from "./feature-set.js";

/** SEP-2640 §Resources: what a server SHOULD NOT exceed per skill. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

export interface SkillConfig {
  /**
   * The skill's files by path relative to its root ("SKILL.md", "references/FORMS.md"):
   * text or raw bytes. SKILL.md is required and must begin with YAML frontmatter naming
   * the skill (`name`, the path's last segment) and describing it (`description`).
   */
  files: Record<string, string | Uint8Array>;
  /** Served (and listed) or not; toggled through the returned handle. */
  enabled?: boolean;
}

/** One file of a skill, as its resource serves it. */
export interface SkillFile {
  uri: string;
  /** The path relative to the skill's root. */
  path: string;
  content: string | Uint8Array;
  mimeType: string;
}

export interface SkillDefinition extends Keyed {
  /** What skills/list and skills/get answer. */
  entry: SkillEntry & { resources: NonNullable<SkillEntry["resources"]> };
  files: SkillFile[];
}

const MIME_TYPES: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  js: "text/javascript",
  ts: "text/x-typescript",
  sh: "text/x-shellscript",
  html: "text/html",
  csv: "text/csv",
  png: "image/png",
  jpg: "image/jpeg",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

function mimeTypeOf(path: string, content: string | Uint8Array): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (
    (extension && MIME_TYPES[extension]) ?? (typeof content === "string" ? "text/plain" : "application/octet-stream")
  );
}

const bytesOf = (content: string | Uint8Array) =>
  typeof content === "string" ? Buffer.from(content, "utf8") : content;

/** A relative path of plain segments: no empty, "." or ".." segment, no leading slash. */
function checkPath(path: string, what: string): void {
  const segments = path.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    throw new TypeError(`${what} "${path}" must be a relative path of non-empty segments without "." or ".."`);
  }
}

/**
 * A skill at `skill://<path>/`, checked against SEP-2640 §Skill Format and §Resource
 * Mapping at registration: SKILL.md with name and description, the path's last segment
 * equal to the name, the Agent Skills naming rules, and the size limits.
 */
export function skillDefinition(path: string, config: SkillConfig): SkillDefinition {
  checkPath(path, "Skill path");
  const paths = Object.keys(config.files).sort();
  for (const file of paths) checkPath(file, "Skill file");
  const skillMd = config.files[SKILL_FILE];
  if (skillMd === undefined) throw new TypeError(`Skill "${path}" has no ${SKILL_FILE}`);
  const frontmatter = parseFrontmatter(typeof skillMd === "string" ? skillMd : Buffer.from(skillMd).toString("utf8"));
  if (
    !frontmatter ||
    typeof frontmatter.name !== "string" ||
    frontmatter.name === "" ||
    typeof frontmatter.description !== "string" ||
    frontmatter.description === ""
  ) {
    throw new TypeError(
      `${SKILL_FILE} of skill "${path}" must begin with YAML frontmatter giving name and description`,
    );
  }
  const name = frontmatter.name;
  const last = path.split("/").at(-1);
  if (last !== name) throw new TypeError(`Skill path "${path}" must end in the skill's name "${name}"`);
  if (!SKILL_NAME.test(name)) {
    throw new TypeError(
      `Skill name "${name}" must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with one`,
    );
  }
  if (paths.length > MAX_SKILL_FILES) {
    throw new RangeError(`Skill "${path}" has ${paths.length} files; the limit is ${MAX_SKILL_FILES}`);
  }
  const root = `skill://${path}`;
  const files: SkillFile[] = [];
  const resources: SkillEntry["resources"] & unknown[] = [];
  let total = 0;
  for (const file of paths) {
    const content = config.files[file] as string | Uint8Array;
    const bytes = bytesOf(content);
    total += bytes.byteLength;
    const uri = `${root}/${file}`;
    files.push({ uri, path: file, content, mimeType: mimeTypeOf(file, content) });
    resources.push({ uri, digest: skillDigest(bytes), size: bytes.byteLength });
  }
  if (total > MAX_SKILL_BYTES) {
    throw new RangeError(`Skill "${path}" has ${total} bytes of files; the limit is ${MAX_SKILL_BYTES}`);
  }
  const uri = `${root}/${SKILL_FILE}`;
  return {
    key: uri,
    enabled: config.enabled ?? true,
    entry: { uri, frontmatter: frontmatter as SkillFrontmatter, resources },
    files,
  };
}
