import type { Client } from "../client/client.js";
import type { CallOptions } from "../client/eras/era.js";
import { scanHeaderParams } from "../protocol/mcp-headers.js";
import type { CompleteRef, Prompt, Resource, ResourceTemplate, Tool } from "../protocol/types/features.js";
import { UriTemplate } from "../protocol/uri-template.js";
import type { Context } from "../server/context.js";
import type { Completer } from "../server/registry/completion.js";
import type { PromptEntry } from "../server/registry/prompt.js";
import type { ResourceEntry, TemplateEntry } from "../server/registry/resource.js";
import type { ToolEntry, ToolReturn } from "../server/registry/tool.js";

/** How a mirrored entry reaches the upstream server. */
export interface Upstream {
  readonly client: Client;
  /** Runs one forwarded request for `ctx`, with the options that carry its cancellation and progress. */
  run<T>(ctx: Context, work: (options: CallOptions) => Promise<T>): Promise<T>;
  /** Forwards completion of one argument of a prompt or template. */
  completer(ref: CompleteRef, argument: string): Completer;
}

/**
 * A tool as the upstream server defined it. Its arguments are not validated here: the
 * upstream server does that, with the errors its revision prescribes.
 */
export function toolFrom(tool: Tool, upstream: Upstream): ToolEntry {
  const headers = scanHeaderParams(tool.inputSchema);
  return {
    key: tool.name,
    enabled: true,
    definition: tool,
    scopes: undefined,
    headerParams: headers.valid ? headers.params : [],
    validateInput: undefined,
    validateOutput: undefined,
    // The upstream decides whether a call runs as a task; this side answers as it does.
    task: undefined,
    handler: (args, ctx) =>
      upstream.run(ctx, (options) => upstream.client.callTool(tool.name, args, options)) as Promise<
        ToolReturn<unknown>
      >,
  };
}

export function promptFrom(prompt: Prompt, upstream: Upstream): PromptEntry {
  const ref: CompleteRef = { type: "ref/prompt", name: prompt.name };
  return {
    key: prompt.name,
    enabled: true,
    definition: prompt,
    scopes: undefined,
    // The upstream server checks required arguments.
    validate: (value) => ({ ok: true, value: value as Record<string, unknown> }),
    complete: Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, upstream.completer(ref, a.name)])),
    handler: (args, ctx) =>
      upstream.run(ctx, (options) => upstream.client.getPrompt(prompt.name, args as Record<string, string>, options)),
  };
}

export function resourceFrom(resource: Resource, upstream: Upstream): ResourceEntry {
  return {
    key: resource.uri,
    enabled: true,
    definition: resource,
    scopes: undefined,
    cache: undefined,
    read: (uri, ctx) => upstream.run(ctx, (options) => upstream.client.readResource(uri, options)),
  };
}

/** Throws when the URI template cannot be parsed. */
export function templateFrom(template: ResourceTemplate, upstream: Upstream): TemplateEntry {
  const parsed = new UriTemplate(template.uriTemplate);
  const ref: CompleteRef = { type: "ref/resource", uri: template.uriTemplate };
  return {
    key: template.uriTemplate,
    enabled: true,
    definition: template,
    scopes: undefined,
    cache: undefined,
    template: parsed,
    complete: Object.fromEntries(parsed.variableNames.map((name) => [name, upstream.completer(ref, name)])),
    list: undefined,
    read: (uri, _variables, ctx) => upstream.run(ctx, (options) => upstream.client.readResource(uri, options)),
  };
}
