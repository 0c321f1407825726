import type { Client } from "../client/client.js";
import type { CallOptions } from "../client/eras/client-era.js";
import { scanHeaderParams } from "../protocol/mcp-headers.js";
import { SKILL_FILE, type SkillEntry } from "../protocol/skills.js";
import { TASKS_EXTENSION, type WireTask } from "../protocol/tasks.js";
import type { CompleteRef, Prompt, Resource, ResourceTemplate, Tool } from "../protocol/types/features.js";
import { UriTemplate } from "../protocol/uri-template.js";
import type { Context } from "../server/handler-context.js";
import type { Completer } from "../server/registry/completer.js";
import type { PromptEntry } from "../server/registry/prompt.js";
import type { ResourceEntry, TemplateEntry } from "../server/registry/resource.js";
import type { SkillDefinition } from "../server/registry/skill.js";
import type { ToolEntry, ToolReturn } from "../server/registry/tool.js";

/** How a mirrored entry reaches the upstream server. */
export interface Upstream {
  /**
   * Runs one forwarded request for `ctx` on the upstream connection that serves its
   * caller, with the options that carry its cancellation, progress and trace context.
   */
  run<T>(ctx: Context, work: (client: Client, options: CallOptions) => Promise<T>): Promise<T>;
  /** Forwards completion of one argument of a prompt or template. */
  completer(ref: CompleteRef, argument: string): Completer;
  /**
   * How the upstream runs this tool as a task: "always" (a 2026-07-28 server that takes
   * tasks, or a tool that runs only as one), "asked" (when this call is a task), or never.
   */
  taskMode(tool: Tool): "always" | "asked" | undefined;
}

/** Every entry the proxy made, so its subscriptions know a mirrored resource from the server's own. */
export const mirroredEntries = new WeakSet<object>();

const mirrored = <T extends object>(entry: T): T => {
  mirroredEntries.add(entry);
  return entry;
};

/**
 * A tool as the upstream server defined it. Its arguments are not validated here: the
 * upstream server does that, with the errors its revision prescribes. A tool the
 * upstream runs as a task may run as one here (tasks, both revisions): the proxy's task
 * starts once the upstream made the call a task, and follows it to its result.
 */
export function toolFrom(tool: Tool, upstream: Upstream): ToolEntry {
  const headers = scanHeaderParams(tool.inputSchema);
  const mode = upstream.taskMode(tool);
  return mirrored({
    key: tool.name,
    enabled: true,
    definition: tool,
    scopes: undefined,
    headerParams: headers.valid ? headers.params : [],
    validateInput: undefined,
    validateOutput: undefined,
    // "optional" even for a tool the upstream runs only as a task: the proxy can wait for it.
    task: mode ? { support: "optional", startsAt: "handler" } : undefined,
    handler: (args, ctx) =>
      upstream.run(ctx, (client, options) => {
        const asTask = mode === "always" || (mode === "asked" && wantsTask(ctx));
        if (!asTask) return client.callTool(tool.name, args, options);
        return callAsTask(client, tool.name, args, options, ctx);
      }) as Promise<ToolReturn<unknown>>,
  });
}

/** Whether the caller's call is, or may become, a task. */
const wantsTask = (ctx: Context) =>
  ctx.task !== undefined || ctx.client.capabilities.extensions?.[TASKS_EXTENSION] !== undefined;

/**
 * Calls the tool as a task upstream. Once the upstream made it one, so does the proxy
 * (its caller gets a task, if it can take one); its status messages follow, and
 * cancelling the proxy's task cancels the upstream's.
 */
async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions,
  ctx: Context,
): Promise<unknown> {
  let taskId: string | undefined;
  const cancel = () => {
    if (taskId !== undefined)
      client
        .task(taskId)
        .cancel()
        .catch(() => {});
  };
  // The call's signal, and once it is a task, the task's (aborted by tasks/cancel).
  const signals = new Set<AbortSignal>();
  const follow = (signal: AbortSignal) => {
    if (signals.has(signal)) return;
    signals.add(signal);
    signal.addEventListener("abort", cancel, { once: true });
  };
  follow(ctx.signal);
  try {
    return await client.callTool(name, args, {
      ...options,
      asTask: {},
      onTask: async (task: WireTask) => {
        if (taskId === undefined) {
          taskId = task.taskId;
          await ctx.startTask();
          follow(ctx.signal);
          if (ctx.signal.aborted) cancel();
        }
        if (task.statusMessage) ctx.status(task.statusMessage);
      },
    });
  } finally {
    for (const signal of signals) signal.removeEventListener("abort", cancel);
  }
}

export function promptFrom(prompt: Prompt, upstream: Upstream): PromptEntry {
  const ref: CompleteRef = { type: "ref/prompt", name: prompt.name };
  return mirrored({
    key: prompt.name,
    enabled: true,
    definition: prompt,
    scopes: undefined,
    // The upstream server checks required arguments.
    validate: (value) => ({ ok: true, value: value as Record<string, unknown> }),
    complete: Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, upstream.completer(ref, a.name)])),
    handler: (args, ctx) =>
      upstream.run(ctx, (client, options) => client.getPrompt(prompt.name, args as Record<string, string>, options)),
  });
}

export function resourceFrom(resource: Resource, upstream: Upstream): ResourceEntry {
  return mirrored({
    key: resource.uri,
    enabled: true,
    definition: resource,
    scopes: undefined,
    cache: undefined,
    read: (uri, ctx) => upstream.run(ctx, (client, options) => client.readResource(uri, options)),
  });
}

/** Throws when the URI template cannot be parsed. */
export function templateFrom(template: ResourceTemplate, upstream: Upstream): TemplateEntry {
  const parsed = new UriTemplate(template.uriTemplate);
  const ref: CompleteRef = { type: "ref/resource", uri: template.uriTemplate };
  return mirrored({
    key: template.uriTemplate,
    enabled: true,
    definition: template,
    scopes: undefined,
    cache: undefined,
    template: parsed,
    complete: Object.fromEntries(parsed.variableNames.map((name) => [name, upstream.completer(ref, name)])),
    list: undefined,
    read: (uri, _variables, ctx) => upstream.run(ctx, (client, options) => client.readResource(uri, options)),
  });
}

/**
 * A skill as the upstream lists it (the Skills extension): its entry as it is, its files
 * (for directory reads) from the entry's digests and the mirrored resources' types. The
 * files' content is read through the mirrored resources.
 */
export function skillFrom(
  entry: SkillEntry,
  resources: (uri: string) => Resource | undefined,
): SkillDefinition & { definition: SkillEntry } {
  const root = entry.uri.slice(0, -SKILL_FILE.length);
  const listed = Array.isArray(entry.resources) ? entry.resources : [];
  return {
    key: entry.uri,
    enabled: true,
    definition: entry,
    entry: { ...entry, resources: entry.resources ?? [] } as SkillDefinition["entry"],
    files: listed.map((file) => ({
      uri: file.uri,
      path: file.uri.startsWith(root) ? file.uri.slice(root.length) : file.uri,
      content: "",
      mimeType: resources(file.uri)?.mimeType ?? "application/octet-stream",
    })),
    ready: Promise.resolve(),
  };
}
