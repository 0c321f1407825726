import type { ReadResourceResult } from "../../protocol/types/features.js";
import { UriTemplate } from "../../protocol/uri-template.js";
import type { ListKind } from "../events.js";
import type { PromptEntry } from "../registry/prompt.js";
import type { Registry } from "../registry/registry.js";
import { type ReadReturn, type ResourceEntry, type TemplateEntry, toReadResult } from "../registry/resource.js";
import type { ToolEntry } from "../registry/tool.js";
import type { Viewer, VisibilityRule } from "../visibility.js";
import { type Namespace, namespace } from "./mount-names.js";
import { type Mirrored, MirroredSet } from "./sync.js";

/** One of the mounted server's definitions, as `MountOptions` see it. */
export interface MountItem {
  /** What it is. */
  readonly kind: "tool" | "prompt" | "resource" | "template";
  /** Its key in the mounted server: a tool's or prompt's name, a URI, a URI template. */
  readonly key: string;
  /** The key it is served under. */
  readonly served: string;
}

/** A tool or prompt served under another name, or with another title or description. */
export interface MountedAs {
  /** The name it is served under, instead of `prefix_name`. */
  name?: string;
  /** The title served instead of its own. */
  title?: string;
  /** The description served instead of its own. */
  description?: string;
}

/** What a mount serves of the mounted server, and to whom. */
export interface MountOptions {
  /** Joins the prefix and a tool's or prompt's name: one to three of "_", "-" and "." (default "_"). */
  separator?: string;
  /**
   * Which of the mounted server's tools and prompts are served, and as what: false leaves
   * one out, true serves it as `served` says, `{ name, title, description }` serves it under
   * another name or with another text. Resources and templates are always served under the
   * prefix, so their URIs follow one rule.
   */
  select?: (item: MountItem) => boolean | MountedAs;
  /**
   * Who sees what is mounted, beside each definition's own rule: a viewer it refuses is
   * neither shown the definition nor let use it (docs/visibility.md). A rule that throws hides.
   */
  visible?: (viewer: Viewer, item: MountItem) => boolean;
}

/** A server mounted into another under a prefix. */
export interface Mount {
  readonly prefix: string;
  /** Takes the mounted server's definitions out again; clients are told. */
  unmount(): void;
}

/** The server that mounts: its registry, and how it announces a resource update. */
export interface MountHost extends Registry {
  resourceUpdated(uri: string): void;
}

/** A mounted entry remembers the entry it stands for, to see when that one is replaced. */
type FromSource<T> = T & { readonly source: T };

const sourceOf = (entry: Mirrored) => (entry as { source?: unknown }).source;
const sameSource = (a: Mirrored, b: Mirrored) =>
  sourceOf(a) === sourceOf(b) && JSON.stringify(a.definition) === JSON.stringify(b.definition);

/**
 * Serves `child`'s enabled tools, prompts, resources and templates from `parent` under
 * `prefix` (see names.ts for the scheme). The entries are the child's own: its handlers,
 * validators, completers and scopes run unchanged, with the parent's request context. A
 * change in the child (registered, removed, enabled, disabled) is mirrored, and clients
 * of the parent are told; resource updates are passed on under the namespaced URI.
 */
export function mountServer(parent: MountHost, prefix: string, child: Registry, options: MountOptions = {}): Mount {
  if ((child as object) === parent) throw new TypeError("A server cannot be mounted into itself");
  const ns = namespace(prefix, options.separator);
  /** The tools or prompts `select` keeps, under their served names, shown as `visible` says. */
  const named = <T extends ToolEntry | PromptEntry>(
    kind: "tool" | "prompt",
    entries: T[],
    mounted: (entry: T, name: string, as: MountedAs) => FromSource<T>,
  ): FromSource<T>[] =>
    entries.flatMap((entry) => {
      const item: MountItem = { kind, key: entry.key, served: ns.name(entry.key) };
      const chosen = options.select ? options.select(item) : true;
      if (chosen === false) return [];
      const as = chosen === true ? {} : chosen;
      const served = { ...item, served: as.name ?? item.served };
      return [shown(mounted(entry, served.served, as), served, options.visible)];
    });
  const onError = (error: unknown) => parent.onError(error);
  const tools = new MirroredSet(parent.tools, "Tool", sameSource);
  const prompts = new MirroredSet(parent.prompts, "Prompt", sameSource);
  const resources = new MirroredSet(parent.resources, "Resource", sameSource);
  const templates = new MirroredSet(parent.templates, "Resource template", sameSource);
  const sync = (kind: ListKind) => {
    if (kind === "tools") tools.sync(named("tool", child.tools.enabled(), mountedTool), onError);
    else if (kind === "prompts") prompts.sync(named("prompt", child.prompts.enabled(), mountedPrompt), onError);
    else {
      resources.sync(
        child.resources.enabled().map((e) => {
          const mounted = mountedResource(e, ns);
          return shown(mounted, { kind: "resource", key: e.key, served: mounted.key }, options.visible);
        }),
        onError,
      );
      const usable = child.templates.enabled().filter((t) => canNamespace(t.key, ns, parent));
      templates.sync(
        usable.map((e) => {
          const mounted = mountedTemplate(e, ns);
          return shown(mounted, { kind: "template", key: e.key, served: mounted.key }, options.visible);
        }),
        onError,
      );
    }
  };
  for (const kind of ["tools", "prompts", "resources"] as const) sync(kind);
  const stop = child.events.subscribe((event) => {
    if (event.type === "list_changed") sync(event.kind);
    else parent.resourceUpdated(ns.uri(event.uri));
  });
  return {
    prefix,
    unmount() {
      stop();
      for (const mirrored of [tools, prompts, resources, templates]) mirrored.clear();
    },
  };
}

function canNamespace(uriTemplate: string, ns: Namespace, parent: Registry): boolean {
  try {
    new UriTemplate(ns.uri(uriTemplate));
    return true;
  } catch (error) {
    parent.onError(
      new TypeError(`Resource template "${uriTemplate}" cannot be mounted under "${ns.prefix}": ${String(error)}`),
    );
    return false;
  }
}

/** The title and description a mount gives instead of the definition's own. */
const texts = (as: MountedAs) => ({
  ...(as.title !== undefined && { title: as.title }),
  ...(as.description !== undefined && { description: as.description }),
});

function mountedTool(entry: ToolEntry, name: string, as: MountedAs): FromSource<ToolEntry> {
  return { ...entry, key: name, definition: { ...entry.definition, name, ...texts(as) }, source: entry };
}

function mountedPrompt(entry: PromptEntry, name: string, as: MountedAs): FromSource<PromptEntry> {
  return { ...entry, key: name, definition: { ...entry.definition, name, ...texts(as) }, source: entry };
}

/** The entry shown to the viewers both its own rule and the mount's let see it. */
function shown<T extends Mirrored & { readonly visible?: VisibilityRule | undefined }>(
  entry: T,
  item: MountItem,
  visible: MountOptions["visible"],
): T {
  if (!visible) return entry;
  const own = entry.visible;
  return { ...entry, visible: (viewer: Viewer) => visible(viewer, item) && (!own || own(viewer)) };
}

function mountedResource(entry: ResourceEntry, ns: Namespace): FromSource<ResourceEntry> {
  const uri = ns.uri(entry.key);
  const watch = entry.subscribe;
  return {
    ...entry,
    key: uri,
    definition: { ...entry.definition, uri },
    read: async (outer, ctx) =>
      outerContents(await entry.read(entry.key, ctx), entry.key, outer, entry.definition.mimeType, ns),
    // The child watches its own URI; `changed` tells the parent's subscriber under the outer one.
    subscribe: watch && ((_outer, ctx, changed) => watch(entry.key, ctx, changed)),
    source: entry,
  };
}

function mountedTemplate(entry: TemplateEntry, ns: Namespace): FromSource<TemplateEntry> {
  const uriTemplate = ns.uri(entry.key);
  const watch = entry.subscribe;
  const list = entry.list;
  return {
    ...entry,
    key: uriTemplate,
    definition: { ...entry.definition, uriTemplate },
    template: new UriTemplate(uriTemplate),
    list: list && (async (ctx) => (await list(ctx)).map((r) => ({ ...r, uri: ns.uri(r.uri) }))),
    read: async (outer, variables, ctx) => {
      const inner = ns.innerUri(outer) ?? outer;
      return outerContents(await entry.read(inner, variables, ctx), inner, outer, entry.definition.mimeType, ns);
    },
    subscribe: watch && ((outer, ctx, changed) => watch(ns.innerUri(outer) ?? outer, ctx, changed)),
    source: entry,
  };
}

/** What the child read, with its URIs as the parent's clients know them. */
function outerContents(
  value: ReadReturn,
  inner: string,
  outer: string,
  mimeType: string | undefined,
  ns: Namespace,
): ReadReturn {
  // The short forms take the URI being read, which is already the outer one.
  if (typeof value === "string" || value instanceof Uint8Array) return value;
  const result: ReadResourceResult = toReadResult(value, inner, mimeType);
  return {
    ...result,
    contents: result.contents.map((c) => ({ ...c, uri: c.uri === inner ? outer : namespaced(c.uri, ns) })),
  };
}

function namespaced(uri: string, ns: Namespace): string {
  try {
    return ns.uri(uri);
  } catch {
    return uri;
  }
}
