import { invalidParams, McpError } from "../../../jsonrpc/errors.js";
import type { JsonObject } from "../../../jsonrpc/types.js";
import type { ListResourcesResult, ReadResourceResult } from "../../../protocol/types/features.js";
import type { CacheHints } from "../../../protocol/types/modern.js";
import type { TemplateVariables } from "../../../protocol/uri-template.js";
import type { Context } from "../../handler-context.js";
import type { Registry } from "../../registry/registry.js";
import { type ReadReturn, type ResourceUnwatch, toReadResult } from "../../registry/resource.js";
import type { CacheHint } from "../../server-options.js";
import { type Guarded, guard, visible } from "../authorization.js";
import { cacheFields } from "../caching.js";
import { encodeDescriptor } from "../encode.js";
import { listPage } from "../list-page.js";
import { type Call, type Methods, method } from "../method.js";

/** The params of a method about one resource: its URI. */
export type UriParams = JsonObject & { uri: string };

/** Reads `uri`, which the method cannot do without. */
export function uriParams(method: string): (params: JsonObject) => UriParams {
  return (params) => {
    if (typeof params.uri !== "string" || params.uri === "") throw invalidParams(`${method} needs a string "uri"`);
    return params as UriParams;
  };
}

/** server/resources */
export const resourceMethods: Methods<
  "resources/list" | "resources/templates/list" | "resources/read" | "resources/subscribe" | "resources/unsubscribe"
> = {
  "resources/list": method({
    capability: (caps) => caps.resources,
    handler: listResources,
  }),
  "resources/templates/list": method({
    capability: (caps) => caps.resources,
    handler: (params, call) =>
      listPage(call.server.templates, params, call, (resourceTemplates) => ({ resourceTemplates })),
  }),
  "resources/read": method({
    capability: (caps) => caps.resources,
    params: uriParams("resources/read"),
    handler: readResource,
  }),
  "resources/subscribe": method({
    capability: (caps) => caps.resources?.subscribe,
    params: uriParams("resources/subscribe"),
    async handler({ uri }, call) {
      const found = guardResource(call, uri);
      const { peer } = call;
      const stop = await found.subscribe?.(call.context(), () =>
        peer.notify("notifications/resources/updated", { uri }),
      );
      peer.subscribe(uri, stop);
      return {};
    },
  }),
  "resources/unsubscribe": method({
    capability: (caps) => caps.resources?.subscribe,
    params: uriParams("resources/unsubscribe"),
    async handler({ uri }, call) {
      await call.peer.unsubscribe(uri);
      return {};
    },
  }),
};

/**
 * Static resources come first, then what templates list; the page spans both, so the
 * cursor is the static page's cursor until the static ones are exhausted.
 */
async function listResources(params: JsonObject, call: Call): Promise<ListResourcesResult> {
  // SKILL.md resources are described once their skill's frontmatter is read.
  if (call.server.skills.size > 0) await Promise.allSettled(call.server.skills.enabled().map((s) => s.ready));
  const page = listPage(call.server.resources, params, call, (resources) => ({ resources }));
  if ("nextCursor" in page) return page;
  let resources = page.resources;
  for (const template of call.server.templates.enabled()) {
    if (template.list && visible(template, call)) {
      const listed = await template.list(call.context());
      resources = resources.concat(listed.map((r) => encodeDescriptor(r, call.peer.rules)));
    }
  }
  return { resources };
}

type Found =
  | {
      read: (call: Call) => ReadReturn | Promise<ReadReturn>;
      /** The entry's own watch of this URI, when it has one (ResourceWatch). */
      subscribe: ((ctx: Context, changed: () => void) => ResourceUnwatch | Promise<ResourceUnwatch>) | undefined;
      mimeType: string | undefined;
      cache: CacheHint | undefined;
      /** The resource or template: what decides whether this caller may see it. */
      entry: Guarded;
    }
  | undefined;

/** An exact resource first, then the first template (in key order) that matches. */
export function findResource(server: Registry, uri: string): Found {
  const resource = server.resources.get(uri);
  if (resource) {
    const watch = resource.subscribe;
    return {
      read: (call) => resource.read(uri, call.context()),
      subscribe: watch && ((ctx, changed) => watch(uri, ctx, changed)),
      mimeType: resource.definition.mimeType,
      cache: resource.cache,
      entry: resource,
    };
  }
  for (const template of server.templates.enabled()) {
    const variables: TemplateVariables | undefined = template.template.match(uri);
    if (variables) {
      const watch = template.subscribe;
      return {
        read: (call) => template.read(uri, variables, call.context()),
        subscribe: watch && ((ctx, changed) => watch(uri, ctx, changed)),
        mimeType: template.definition.mimeType,
        cache: template.cache,
        entry: template,
      };
    }
  }
  return undefined;
}

/** server/resources §Error Handling: the revision's code, with the URI in data. */
const notFound = (uri: string, call: Call) =>
  new McpError(call.peer.rules.resourceNotFoundCode, `Resource not found: ${uri}`, { uri });

/**
 * The resource (or matching template) at `uri`, if this caller may use it: the guard of
 * resources/read, resources/subscribe and each URI of subscriptions/listen.
 */
export function guardResource(call: Call, uri: string): NonNullable<Found> {
  const found = findResource(call.server, uri);
  guard(found?.entry, call, "resource", uri, notFound);
  return found as NonNullable<Found>;
}

async function readResource({ uri }: UriParams, call: Call): Promise<ReadResourceResult & CacheHints> {
  const found = guardResource(call, uri);
  const result = toReadResult(await found.read(call), uri, found.mimeType);
  // A read that produced nothing is reported, not answered with empty contents.
  if (result.contents.length === 0) throw notFound(uri, call);
  if (call.peer.rules.modern) return { ...result, ...cacheFields(call.server, "resources/read", found.cache) };
  return result;
}
