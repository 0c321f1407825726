import type { JsonObject, JsonRpcNotification } from "../jsonrpc/types.js";
import type { Prompt, Resource, ResourceTemplate, Tool } from "../protocol/types/features.js";
import type { ClientEra } from "./eras/client-era.js";
import { listAll } from "./list-all.js";
import { ListCache, type ListFetch } from "./list-cache.js";

const LIST_CHANGED: Record<string, "tools" | "prompts" | "resources"> = {
  "notifications/tools/list_changed": "tools",
  "notifications/prompts/list_changed": "prompts",
  "notifications/resources/list_changed": "resources",
};

/**
 * The client's cached lists, every page of each (server/utilities/pagination), kept until
 * the server says a list changed or, on a modern server, its ttlMs ran out.
 */
export class ClientLists {
  readonly tools: ListCache<Tool>;
  readonly prompts: ListCache<Prompt>;
  readonly resources: ListCache<Resource>;
  readonly resourceTemplates: ListCache<ResourceTemplate>;

  constructor(
    request: (method: string, params: JsonObject | undefined) => Promise<JsonObject>,
    era: () => ClientEra | undefined,
    onTools?: (tools: Tool[]) => void,
  ) {
    const all = <T>(method: string, key: string) => listAll<T>(request, method, key, era()?.listsExpire ?? false);
    this.tools = new ListCache<Tool>(async (): Promise<ListFetch<Tool>> => {
      const fetched = await all<Tool>("tools/list", "tools");
      // On HTTP, without the tools whose x-mcp-header annotations are invalid.
      const items = era()?.acceptTools(fetched.items, true) ?? fetched.items;
      onTools?.(items);
      return { items, freshUntil: fetched.freshUntil };
    });
    this.prompts = new ListCache(() => all<Prompt>("prompts/list", "prompts"));
    this.resources = new ListCache(() => all<Resource>("resources/list", "resources"));
    this.resourceTemplates = new ListCache(() =>
      all<ResourceTemplate>("resources/templates/list", "resourceTemplates"),
    );
  }

  invalidateAll(): void {
    for (const cache of [this.tools, this.prompts, this.resources, this.resourceTemplates]) cache.invalidate();
  }

  /** A list_changed notification drops the list it names (resource templates go with resources). */
  noteChange(notification: JsonRpcNotification): void {
    const kind = LIST_CHANGED[notification.method];
    if (!kind) return;
    this[kind].invalidate();
    if (kind === "resources") this.resourceTemplates.invalidate();
  }
}
