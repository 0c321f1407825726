/**
 * Large catalogs (ServerOptions.toolCatalog): past a threshold, tools/list shows a
 * `search_tools` tool that ranks the catalog and a `call_tool` tool that calls what it
 * found, instead of every tool's schema; every tool stays callable by its own name.
 * docs/server.md § Large tool catalogs.
 */
export interface ToolCatalogOptions {
  /** The catalog is on while more tools than this are enabled (default 100; 0: always). */
  threshold?: number;
  /** Tools listed as well as the two catalog tools (when they exist for the caller). */
  pinned?: readonly string[];
  /** Results search_tools gives when the query does not say (default 8; at most 50). */
  limit?: number;
}

export const SEARCH_TOOLS = "search_tools";
export const CALL_TOOL = "call_tool";

/** What catalogOn reads of a server (structural: the registry imports this file's options). */
export interface CatalogHost {
  readonly options: { readonly toolCatalog?: ToolCatalogOptions | false };
  readonly tools: { enabled(): readonly unknown[] };
}

/**
 * Whether the catalog is on for this server now: past its threshold (default 100 enabled
 * tools) unless turned off. Decided here, apart from the catalog itself, so that a server
 * below the threshold never loads it.
 */
export function catalogOn(server: CatalogHost): boolean {
  const option = server.options.toolCatalog;
  return option !== false && server.tools.enabled().length > (option?.threshold ?? 100);
}
