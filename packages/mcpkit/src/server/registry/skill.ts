import {
  frontmatterBlock,
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
  /** What skills/list and skills/get answer, once `ready`. */
  entry: SkillEntry & { resources: NonNullable<SkillEntry["resources"]> };
  files: SkillFile[];
  /**
   * Settles once SKILL.md's frontmatter is read into `entry` (the YAML parser loads on
   * first use, so a server without skills never pays for it); rejects when it does not
   * name and describe the skill as its path says.
   */
  ready: Promise<void>;
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

const noFrontmatter = (path: string) =>
  new TypeError(`${SKILL_FILE} of skill "${path}" must begin with YAML frontmatter giving name and description`);

/**
 * A skill at `skill://<path>/`, checked against SEP-2640 §Skill Format and §Resource
 * Mapping: at registration, the paths, SKILL.md and its frontmatter block, the Agent
 * Skills naming rules for the path's last segment, and the size limits; once `ready`, the
 * frontmatter's name (equal to that segment) and description.
 */
export function skillDefinition(path: string, config: SkillConfig): SkillDefinition {
  checkPath(path, "Skill path");
  const paths = Object.keys(config.files).sort();
  for (const file of paths) checkPath(file, "Skill file");
  const skillMd = config.files[SKILL_FILE];
  if (skillMd === undefined) throw new TypeError(`Skill "${path}" has no ${SKILL_FILE}`);
  const skillText = typeof skillMd === "string" ? skillMd : Buffer.from(skillMd).toString("utf8");
  if (frontmatterBlock(skillText) === undefined) throw noFrontmatter(path);
  const name = path.split("/").at(-1) as string;
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
  const entry: SkillDefinition["entry"] = { uri, frontmatter: {} as SkillFrontmatter, resources };
  const ready = parseFrontmatter(skillText).then((frontmatter) => {
    if (
      !frontmatter ||
      typeof frontmatter.name !== "string" ||
      frontmatter.name === "" ||
      typeof frontmatter.description !== "string" ||
      frontmatter.description === ""
    ) {
      throw noFrontmatter(path);
    }
    if (frontmatter.name !== name)
      throw new TypeError(`Skill path "${path}" must end in the skill's name "${frontmatter.name}"`);
    entry.frontmatter = frontmatter as SkillFrontmatter;
  });
  return { key: uri, enabled: config.enabled ?? true, entry, files, ready };
}
