import { invalidParams } from "../../../jsonrpc/errors.js";
import { DIRECTORY_MIME_TYPE, SKILLS_EXTENSION } from "../../../protocol/skills.js";
import type { ServerCapabilities } from "../../../protocol/types/capabilities.js";
import type { Resource } from "../../../protocol/types/features.js";
import type { Registry } from "../../registry/registry.js";
import { encodeDescriptor } from "../encode.js";
import { type Methods, method } from "../method.js";
import { uriParams } from "./resources.js";

const declared = (caps: ServerCapabilities) => caps.extensions?.[SKILLS_EXTENSION];

/** The Skills extension (SEP-2640): skills/list, skills/get and resources/directory/read. */
export const skillMethods: Methods<"skills/list" | "skills/get" | "resources/directory/read"> = {
  "skills/list": method({
    capability: declared,
    async handler(params, call) {
      // An entry is atomic: a page holds whole entries (SEP-2640 §Enumeration).
      const page = call.server.skills.page(params.cursor, call.server.pageSize);
      const read = await Promise.allSettled(page.items.map((s) => s.ready));
      const skills = page.items.filter((_, i) => read[i]?.status === "fulfilled").map((s) => s.entry);
      return page.nextCursor === undefined ? { skills } : { skills, nextCursor: page.nextCursor };
    },
  }),
  "skills/get": method({
    capability: declared,
    params: uriParams("skills/get"),
    async handler({ uri }, call) {
      const skill = call.server.skills.get(uri);
      if (
        !skill ||
        !(await skill.ready.then(
          () => true,
          () => false,
        ))
      )
        throw invalidParams(`No skill is served at ${uri}`, { uri });
      return { skill: skill.entry };
    },
  }),
  "resources/directory/read": method({
    capability: (caps) => (declared(caps) as { directoryRead?: unknown } | undefined)?.directoryRead,
    params: uriParams("resources/directory/read"),
    handler(params, call) {
      const { uri } = params;
      const children = directoryChildren(call.server, uri);
      if (!children) throw invalidParams(`${uri} is not a directory this server serves`, { uri });
      const { cursor } = params;
      if (cursor !== undefined && typeof cursor !== "string") throw invalidParams("Invalid cursor");
      // The cursor is the last URI of the previous page (children are in URI order).
      const from = cursor === undefined ? 0 : children.filter((c) => c.uri <= cursor).length;
      const items = children.slice(from, from + call.server.pageSize);
      const resources = items.map((r) => encodeDescriptor(r, call.peer.rules));
      const last = items.at(-1);
      return from + items.length < children.length && last ? { resources, nextCursor: last.uri } : { resources };
    },
  }),
};

/**
 * SEP-2640 §Directory Listing: the direct children of a directory within the served skills
 * (files with their resource metadata, subdirectories as `inode/directory`), in URI order;
 * undefined when `uri` is no such directory.
 */
function directoryChildren(server: Registry, uri: string): Resource[] | undefined {
  const prefix = `${uri}/`;
  const children = new Map<string, Resource>();
  for (const skill of server.skills.enabled()) {
    for (const file of skill.files) {
      if (!file.uri.startsWith(prefix)) continue;
      const [name, ...rest] = file.uri.slice(prefix.length).split("/") as [string, ...string[]];
      const childUri = `${prefix}${name}`;
      if (children.has(childUri)) continue;
      children.set(
        childUri,
        rest.length > 0
          ? { uri: childUri, name, mimeType: DIRECTORY_MIME_TYPE }
          : (server.resources.get(childUri)?.definition ?? { uri: childUri, name, mimeType: file.mimeType }),
      );
    }
  }
  if (children.size === 0) return undefined;
  return [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}
