import type { Client } from "../../client/client.js";
import { isRecord, type LintCall, type LintCallResult, type RawLists } from "./rule.js";

/** The most pages one list may take before lint gives up on it. */
const MAX_PAGES = 1000;
/** The most JSON one list may hold, every page together (a real one is a fraction of this). */
const MAX_LIST_BYTES = 64 * 1024 * 1024;

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/**
 * Reads the lists a server's capabilities offer, raw, page by page (`client.request`, not
 * the typed calls, which check and may drop entries: lint must see what a strict client
 * would refuse). Nothing here throws for what the server does: a list that cannot be read
 * is a failure in the result.
 */
export async function readLists(client: Client): Promise<RawLists> {
  const capabilities = client.serverCapabilities ?? {};
  const lists: RawLists = { failures: [], calls: [] };
  const read = async (method: string, field: string): Promise<unknown[] | undefined> => {
    const items: unknown[] = [];
    const seen = new Set<string>();
    let bytes = 0;
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) {
        lists.failures.push({ list: method, message: `it took more than ${MAX_PAGES} pages; lint stopped there` });
        return items;
      }
      let result: unknown;
      try {
        result = await client.request(method, cursor === undefined ? {} : { cursor });
      } catch (error) {
        lists.failures.push({ list: method, message: (error as Error).message });
        return items.length > 0 ? items : undefined;
      }
      const entries = isRecord(result) ? result[field] : undefined;
      if (!Array.isArray(entries)) {
        lists.failures.push({ list: method, message: `the result has no "${field}" list` });
        return items.length > 0 ? items : undefined;
      }
      items.push(...entries);
      bytes += bytesOf(entries);
      if (bytes > MAX_LIST_BYTES) {
        lists.failures.push({
          list: method,
          message: `it holds more than ${MAX_LIST_BYTES / 1024 / 1024} MiB; lint stopped there`,
        });
        return items;
      }
      const next = isRecord(result) ? result.nextCursor : undefined;
      if (next === undefined || next === null) return items;
      if (typeof next !== "string" || seen.has(next)) {
        lists.failures.push({
          list: method,
          message: `nextCursor ${JSON.stringify(next)} ${typeof next === "string" ? "came back a second time: the pages never end" : "is not a string"}`,
        });
        return items;
      }
      seen.add(next);
      cursor = next;
    }
  };
  if (capabilities.tools) {
    lists.tools = await read("tools/list", "tools");
    if (lists.tools) lists.toolsBytes = bytesOf(lists.tools);
  }
  if (capabilities.prompts) lists.prompts = await read("prompts/list", "prompts");
  if (capabilities.resources) {
    lists.resources = await read("resources/list", "resources");
    lists.resourceTemplates = await read("resources/templates/list", "resourceTemplates");
  }
  return lists;
}

/** Makes each tool call, raw as well (a result that breaks its outputSchema is kept, to be reported). */
export async function callTools(client: Client, calls: readonly LintCall[]): Promise<LintCallResult[]> {
  const results: LintCallResult[] = [];
  for (const call of calls) {
    try {
      const result = await client.request("tools/call", { name: call.name, arguments: call.arguments ?? {} });
      results.push({ ...call, result });
    } catch (error) {
      results.push({ ...call, error: (error as Error).message });
    }
  }
  return results;
}
