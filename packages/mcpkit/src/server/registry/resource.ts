import type { Annotations, Icon, Meta } from "../../protocol/types/common.js";
import type { ResourceContents } from "../../protocol/types/content.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "../../protocol/types/features.js";
import { type TemplateVariableName, type TemplateVariablesOf, UriTemplate } from "../../protocol/uri-template.js";
import type { Context } from "../handler-context.js";
import type { CacheHint } from "../server-options.js";
import type { VisibilityRule } from "../visibility.js";
import type { Completer } from "./completer.js";
import type { Keyed } from "./feature-set.js";

interface ResourceMetadata {
  /** OAuth scopes a caller needs (checked when the request carries a verified token). */
  scopes?: string[];
  /** Caching hint for reads of it on 2026-07-28 (server/utilities/caching). */
  cache?: CacheHint;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
  enabled?: boolean;
  /**
   * Shows it only to some callers (by principal, session or client); hidden, it is neither
   * listed nor known by name. Clients are told of list changes only when their view changed.
   */
  visible?: VisibilityRule;
}

export interface ResourceConfig extends ResourceMetadata {
  /** Defaults to the URI. */
  name?: string;
  /** Size in bytes, when known. */
  size?: number;
}

export interface ResourceTemplateConfig<T extends string = string> extends ResourceMetadata {
  name: string;
  /** Completion for template variables (completion/complete with ref/resource), by variable name. */
  complete?: { [K in TemplateVariableName<T>]?: Completer };
  /** Concrete resources this template can produce, added to resources/list. */
  list?: (ctx: Context) => Resource[] | Promise<Resource[]>;
}

/**
 * What a read handler may return: the contents (one or several), a string for one text
 * content, or bytes for one blob content; URI and mimeType are filled in for the short forms.
 */
export type ReadReturn = ReadResourceResult | ResourceContents | ResourceContents[] | string | Uint8Array;

export type ReadHandler = (uri: string, ctx: Context) => ReadReturn | Promise<ReadReturn>;

/** Reads a template's resource; `variables` are typed from the template's text. */
export type TemplateReadHandler<T extends string = string> = (
  uri: string,
  variables: TemplateVariablesOf<T>,
  ctx: Context,
) => ReadReturn | Promise<ReadReturn>;

/**
 * What a subscription to a resource reaches, when its entry has one (a proxied resource):
 * watch `uri` for this one subscriber (a session's resources/subscribe, or one
 * subscriptions/listen stream) and call `changed()` to tell exactly that subscriber. The
 * function it returns ends the watch: unsubscribed, or the session or stream closed.
 * Resources without it are told of with `server.resourceUpdated(uri)`, which reaches every
 * subscriber of the URI.
 */
export type ResourceWatch = (
  uri: string,
  ctx: Context,
  changed: () => void,
) => ResourceUnwatch | Promise<ResourceUnwatch>;

/** Ends a ResourceWatch; an unsubscribe is answered once it settles. */
export type ResourceUnwatch = () => void | Promise<void>;

export interface ResourceEntry extends Keyed {
  definition: Resource;
  visible?: VisibilityRule | undefined;
  scopes: string[] | undefined;
  cache: CacheHint | undefined;
  read: ReadHandler;
  subscribe?: ResourceWatch;
}

export interface TemplateEntry extends Keyed {
  definition: ResourceTemplate;
  visible?: VisibilityRule | undefined;
  scopes: string[] | undefined;
  cache: CacheHint | undefined;
  template: UriTemplate;
  complete: Partial<Record<string, Completer>>;
  list: ResourceTemplateConfig["list"];
  read: TemplateReadHandler;
  subscribe?: ResourceWatch;
}

function metadata(config: ResourceMetadata) {
  return {
    ...(config.title !== undefined && { title: config.title }),
    ...(config.description !== undefined && { description: config.description }),
    ...(config.mimeType !== undefined && { mimeType: config.mimeType }),
    ...(config.annotations && { annotations: config.annotations }),
    ...(config.icons && { icons: config.icons }),
    ...(config._meta && { _meta: config._meta }),
  };
}

export function resourceEntry(uri: string, config: ResourceConfig, read: ReadHandler): ResourceEntry {
  try {
    new URL(uri);
  } catch {
    throw new TypeError(`Resource URI "${uri}" is not an absolute URI (RFC 3986)`);
  }
  const definition: Resource = {
    uri,
    name: config.name ?? uri,
    ...metadata(config),
    ...(config.size !== undefined && { size: config.size }),
  };
  const { scopes, cache, visible } = config;
  return { key: uri, enabled: config.enabled ?? true, definition, scopes, cache, visible, read };
}

export function templateEntry(
  uriTemplate: string,
  config: ResourceTemplateConfig,
  read: TemplateReadHandler,
): TemplateEntry {
  const template = new UriTemplate(uriTemplate);
  const definition: ResourceTemplate = { uriTemplate, name: config.name, ...metadata(config) };
  return {
    key: uriTemplate,
    enabled: config.enabled ?? true,
    definition,
    scopes: config.scopes,
    cache: config.cache,
    visible: config.visible,
    template,
    complete: config.complete ?? {},
    list: config.list,
    read,
  };
}

export function toReadResult(value: ReadReturn, uri: string, mimeType: string | undefined): ReadResourceResult {
  const withMime = <T extends object>(c: T) => (mimeType === undefined ? c : { ...c, mimeType });
  if (typeof value === "string") return { contents: [withMime({ uri, text: value })] };
  if (value instanceof Uint8Array)
    return { contents: [withMime({ uri, blob: Buffer.from(value).toString("base64") })] };
  if (Array.isArray(value)) return { contents: value };
  if ("contents" in value && Array.isArray(value.contents)) return value;
  return { contents: [value as ResourceContents] };
}
