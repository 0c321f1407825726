import type { Client } from "../../client/client.js";
import type { Progress } from "../../connection/connection-options.js";
import type { CompleteParams } from "../../protocol/types/features.js";
import type { ListName, TestRequest } from "./test-file.js";

/** The method each list is read with, and the key of its items. */
const LISTS: Record<ListName, [method: string, key: string]> = {
  tools: ["tools/list", "tools"],
  prompts: ["prompts/list", "prompts"],
  resources: ["resources/list", "resources"],
  templates: ["resources/templates/list", "resourceTemplates"],
};

/** Pages read before a list is taken to be endless. */
export const MAX_PAGES = 1000;

export interface SendOptions {
  timeoutMs: number;
  /** Ask for progress (a progressToken is sent only then). */
  onprogress?: (progress: Progress) => void;
}

/** Sends a test's request the way a client would: tools through callTool (headers, tasks), lists every page. */
export function send(client: Client, request: TestRequest, options: SendOptions): Promise<object> {
  switch (request.kind) {
    case "call":
      return client.callTool(request.name, request.arguments, options);
    case "read":
      return client.readResource(request.uri, options);
    case "prompt":
      return client.getPrompt(request.name, request.arguments, options);
    case "complete":
      return client.complete(
        {
          ref: request.ref as unknown as CompleteParams["ref"],
          argument: request.argument,
          ...(request.context && { context: request.context as CompleteParams["context"] }),
        },
        options,
      );
    case "list":
      return listAll(client, ...LISTS[request.list], options);
  }
}

/** Every page of a list, as one result: `{ tools: [...] }`. */
export async function listAll(
  client: Client,
  method: string,
  key: string,
  options: { timeoutMs?: number } = {},
): Promise<Record<string, unknown[]>> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request<Record<string, unknown>>(
      method,
      cursor === undefined ? undefined : { cursor },
      options,
    );
    const list = result[key];
    if (Array.isArray(list)) items.push(...list);
    if (typeof result.nextCursor !== "string" || result.nextCursor === "") return { [key]: items };
    if (result.nextCursor === cursor) throw new Error(`${method} gave the same cursor twice: the list never ends`);
    cursor = result.nextCursor;
  }
  throw new Error(`${method} gave more than ${MAX_PAGES} pages`);
}
