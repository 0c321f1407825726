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
