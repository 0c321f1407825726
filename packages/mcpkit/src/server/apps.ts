import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type { ResourceContents } from "../protocol/types/content.js";
import type { SchemaInput } from "../schema/standard.js";
import { type Handle, register } from "./entry-handle.js";
import type { Context } from "./handler-context.js";
import { definitionOf, type McpServer } from "./mcp-server.js";
import type { ResourceConfig } from "./registry/resource.js";
import { type ToolConfig, type ToolHandler, toolEntry } from "./registry/tool.js";
import type { Viewer } from "./visibility.js";

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, stable 2026-01-26): a
 * tool names a `ui://` resource holding an HTML view, which a host that supports the
 * extension renders in a sandboxed iframe with the tool's results. Hosts without it see an
 * ordinary tool, so its result must still make sense as text.
 */
export const APPS_EXTENSION = "io.modelcontextprotocol/ui";

/** The MIME type of an app's HTML view. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** Who may call an app's tool: the model (listed to the agent), the app's view, or both (the default). */
export type AppToolVisibility = ("model" | "app")[];

/** How the host should sandbox and frame a view (the resource's `_meta.ui`). */
export interface AppViewMeta {
  /** Origins the view may reach; omitted, none (the host's restrictive default CSP). */
  csp?: {
    /** fetch/XHR/WebSocket (connect-src). */
    connectDomains?: string[];
    /** Scripts, styles, images, fonts, media. */
    resourceDomains?: string[];
    /** Nested iframes (frame-src). */
    frameDomains?: string[];
    /** Allowed base URIs (base-uri). */
    baseUriDomains?: string[];
  };
  /** Browser features the view asks for; hosts may refuse, so views feature-detect. */
  permissions?: { camera?: object; microphone?: object; geolocation?: object; clipboardWrite?: object };
  /** A dedicated sandbox origin, in the host's own format. */
  domain?: string;
  /** Whether the host should draw a border and background. */
  prefersBorder?: boolean;
}

export interface AppViewConfig extends Omit<ResourceConfig, "mimeType" | "name"> {
  name: string;
  /** CSP, permissions, domain and border preference, sent with the listing and with every read. */
  ui?: AppViewMeta;
}

/** The view's HTML document, as text (or bytes, sent base64). */
export type AppViewHtml = string | Uint8Array;

export interface AppToolConfig<In extends SchemaInput | undefined, Out extends SchemaInput | undefined>
  extends ToolConfig<In, Out> {
  /** The `ui://` resource that renders this tool's results, and who may call the tool. */
  ui: { resourceUri: string; visibility?: AppToolVisibility };
}

function requireUiUri(uri: string, what: string): void {
  if (!uri.startsWith("ui://")) throw new TypeError(`${what} "${uri}" must use the ui:// scheme (MCP Apps)`);
}

/**
 * Registers the HTML view of an app at a `ui://` URI, with the extension's MIME type and
 * its `_meta.ui` (CSP, permissions…) on the listing and on the read contents.
 */
export function appView(
  server: McpServer,
  uri: string,
  config: AppViewConfig,
  html: (ctx: Context) => AppViewHtml | Promise<AppViewHtml>,
): Handle {
  requireUiUri(uri, "An app view's URI");
  const { ui, _meta, ...rest } = config;
  const meta = ui ? { ..._meta, ui } : _meta;
  return server.resource(uri, { ...rest, mimeType: APP_MIME_TYPE, ...(meta && { _meta: meta }) }, async (_uri, ctx) => {
    const body = await html(ctx);
    const content: ResourceContents =
      typeof body === "string"
        ? { uri, mimeType: APP_MIME_TYPE, text: body }
        : { uri, mimeType: APP_MIME_TYPE, blob: Buffer.from(body).toString("base64") };
    return ui ? { ...content, _meta: { ui } } : content;
  });
}

/**
 * Registers a tool whose results an app view renders: `_meta.ui.resourceUri` names the
 * view (and `visibility`, when given, who may call it). The handler returns an ordinary
 * result: `content` for the model and text-only hosts, `structuredContent` for the view.
 */
export function appTool<
  In extends SchemaInput | undefined = undefined,
  Out extends SchemaInput | undefined = undefined,
>(server: McpServer, name: string, config: AppToolConfig<In, Out>, handler: ToolHandler<In, Out>): Handle {
  const { ui, _meta, ...rest } = config;
  requireUiUri(ui.resourceUri, `Tool "${name}": its view`);
  const meta = { ..._meta, ui: { resourceUri: ui.resourceUri, ...(ui.visibility && { visibility: ui.visibility }) } };
  // server.tool() with the config as given: its overloads cannot be picked for a generic Out.
  const entry = toolEntry(name, { ...rest, _meta: meta }, handler as ToolHandler<unknown, unknown>);
  return register(definitionOf(server).tools, entry, "Tool");
}

/** Whether the client said it renders MCP Apps views (`extensions["io.modelcontextprotocol/ui"].mimeTypes`). */
export function supportsApps(capabilities: ClientCapabilities | undefined): boolean {
  const declared = capabilities?.extensions?.[APPS_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(declared?.mimeTypes) && declared.mimeTypes.includes(APP_MIME_TYPE);
}

/** A visibility rule: shown only to clients that render MCP Apps views (for a text-only twin, negate it). */
export const forAppHosts = (viewer: Viewer): boolean => supportsApps(viewer.clientCapabilities);
