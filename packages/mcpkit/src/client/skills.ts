import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import {
  parseFrontmatter,
  SKILL_FILE,
  SKILLS_EXTENSION,
  type SkillEntry,
  type SkillResource,
  sameJson,
  skillDigest,
  skillRoot,
} from "../protocol/skills.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { ReadResourceResult } from "../protocol/types/features.js";
import { listAll } from "./list-all.js";

/** What the skill functions need of a client. */
export interface SkillsPeer {
  request<R extends object = JsonObject>(method: string, params?: object): Promise<R>;
  readResource(uri: string): Promise<ReadResourceResult>;
}

/** `peer`, once the server declared the Skills extension; -32601 otherwise. */
export function skillsPeerOf(capabilities: ServerCapabilities, peer: SkillsPeer): SkillsPeer {
  if (!capabilities.extensions?.[SKILLS_EXTENSION]) {
    throw new McpError(ErrorCode.MethodNotFound, `The server does not offer skills (no ${SKILLS_EXTENSION} extension)`);
  }
  return peer;
}

/** Why a file of a skill was refused (SEP-2640 §Integrity and verification). */
export type SkillRefusal = "size" | "digest" | "frontmatter" | "unlisted" | "unverifiable" | "unreadable";

/** The server's content does not match the skill's entry: nothing of it may be used. */
export class SkillVerificationError extends Error {
  readonly uri: string;
  readonly reason: SkillRefusal;

  constructor(uri: string, reason: SkillRefusal, message: string) {
    super(message);
    this.name = "SkillVerificationError";
    this.uri = uri;
    this.reason = reason;
  }
}

/** A skill whose SKILL.md was fetched and verified; its other files are read on demand. */
export interface LoadedSkill {
  readonly entry: SkillEntry;
  /** The verified SKILL.md. */
  readonly text: string;
  /** A file of the skill by its path relative to the skill's root, verified before it is returned. */
  read(path: string): Promise<Uint8Array>;
  /** The same, as UTF-8 text. */
  readText(path: string): Promise<string>;
}

export interface LoadSkillOptions {
  /**
   * Load a skill whose entry publishes no digests (`resources: "dynamic"`): its frontmatter
   * is still compared, its content cannot be verified (default false: refused).
   */
  allowUnverified?: boolean;
}

/** Every skill entry, following cursors (skills/list). Fetches no file. */
export async function listSkills(peer: SkillsPeer): Promise<SkillEntry[]> {
  const { items } = await listAll<SkillEntry>((m, p) => peer.request(m, p), "skills/list", "skills", false);
  return items;
}

/** One skill's current entry (skills/get), listed or not. */
export async function getSkill(peer: SkillsPeer, uri: string): Promise<SkillEntry> {
  const result = await peer.request<{ skill: SkillEntry }>("skills/get", { uri });
  return result.skill;
}

/** The raw bytes of a resource read: the text as UTF-8, or the decoded blob. */
async function fetchBytes(peer: SkillsPeer, uri: string): Promise<Uint8Array> {
  const { contents } = await peer.readResource(uri);
  const content = contents.find((c) => c.uri === uri) ?? contents[0];
  if (content && "text" in content && typeof content.text === "string") return Buffer.from(content.text, "utf8");
  if (content && "blob" in content && typeof content.blob === "string") return Buffer.from(content.blob, "base64");
  throw new SkillVerificationError(uri, "unreadable", `${uri}: the server returned no content`);
}

/**
 * SEP-2640 §Integrity and verification: the bytes must have the entry's size (checked
 * first, without hashing) and digest; anything else is not what the listing promised.
 */
function verify(listed: SkillResource, bytes: Uint8Array): void {
  if (bytes.byteLength !== listed.size) {
    throw new SkillVerificationError(
      listed.uri,
      "size",
      `${listed.uri}: ${bytes.byteLength} bytes where the skill's entry lists ${listed.size}; refusing the content`,
    );
  }
  const digest = skillDigest(bytes);
  if (digest !== listed.digest) {
    throw new SkillVerificationError(
      listed.uri,
      "digest",
      `${listed.uri}: digest ${digest} where the skill's entry lists ${listed.digest}; refusing the content`,
    );
  }
}

/**
 * Loads a skill: fetches its SKILL.md now (never earlier: SEP-2640 forbids prefetching),
 * verifies size and digest against the entry, parses the frontmatter and compares it field
 * by field with the entry's. Supporting files are fetched and verified when read; a file
 * the entry does not list is refused. Takes an entry from listSkills/getSkill, or a URI
 * (whose entry is asked for with skills/get).
 */
export async function loadSkill(
  peer: SkillsPeer,
  skill: SkillEntry | string,
  options: LoadSkillOptions = {},
): Promise<LoadedSkill> {
  const entry = typeof skill === "string" ? await getSkill(peer, skill) : skill;
  const listed = Array.isArray(entry.resources) ? entry.resources : undefined;
  if (!listed && !options.allowUnverified) {
    throw new SkillVerificationError(
      entry.uri,
      "unverifiable",
      `${entry.uri}: the skill publishes no digests ("dynamic"), so its content cannot be verified; pass allowUnverified to load it anyway`,
    );
  }
  const readVerified = async (uri: string): Promise<Uint8Array> => {
    if (!listed) return fetchBytes(peer, uri);
    const file = listed.find((r) => r.uri === uri);
    // Checked before fetching: an unlisted file is a change to the skill.
    if (!file)
      throw new SkillVerificationError(uri, "unlisted", `${uri} is not listed in the skill's entry; refusing it`);
    const bytes = await fetchBytes(peer, uri);
    verify(file, bytes);
    return bytes;
  };
  const text = Buffer.from(await readVerified(entry.uri)).toString("utf8");
  const frontmatter = await parseFrontmatter(text);
  if (!frontmatter || !sameJson(frontmatter, entry.frontmatter)) {
    throw new SkillVerificationError(
      entry.uri,
      "frontmatter",
      `${entry.uri}: the ${SKILL_FILE} frontmatter differs from the skill's entry; refusing to load it`,
    );
  }
  const root = skillRoot(entry.uri);
  const read = (path: string) => {
    if (path.split("/").some((s) => s === "" || s === "." || s === "..")) {
      return Promise.reject(new TypeError(`"${path}" is not a path within the skill`));
    }
    return readVerified(`${root}/${path}`);
  };
  return {
    entry,
    text,
    read,
    readText: async (path) => Buffer.from(await read(path)).toString("utf8"),
  };
}
