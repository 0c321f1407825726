import { Client } from "../client/client.js";
import type { CallOptions } from "../client/eras/era.js";
import type { ClientOptions } from "../client/options.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { META } from "../protocol/meta.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { LogLevel } from "../protocol/types/common.js";
import type { CompleteRef, Prompt, Resource, ResourceTemplate, Tool } from "../protocol/types/features.js";
import type { SubscriptionFilter } from "../protocol/types/modern.js";
import { MirroredSet } from "../server/compose/sync.js";
import type { Context } from "../server/context.js";
import { ClientRequestError } from "../server/dispatch/request-context.js";
import type { ServerOptions } from "../server/options.js";
import type { Completer } from "../server/registry/completion.js";
import { McpServer } from "../server/server.js";
import type { Transport } from "../transports/transport.js";
import { promptFrom, resourceFrom, templateFrom, toolFrom, type Upstream } from "./entries.js";
import { RequestRouting } from "./routing.js";

export interface ProxyOptions extends Partial<ServerOptions> {
  /** How the proxy's client presents itself upstream (default name "mcpkit-proxy"), its protocolVersion, timeouts. */
  client?: Partial<Omit<ClientOptions, "sampling" | "elicitation" | "listRoots">>;
}

/** An MCP server reached by a Client, served again as an McpServer. */
export interface McpProxy {
  /** Serve it like any McpServer: connect a transport, or hand it to an HTTP endpoint. */
  readonly server: McpServer;
  /** The client connected to the upstream server. */
  readonly client: Client;
  /** Reads every list from the upstream server again (list_changed does this by itself). */
  refresh(): Promise<void>;
  /** Closes the server's sessions, then the upstream connection. */
  close(): Promise<void>;
}

/** What the proxy re-declares of the upstream server's capabilities. */
const FORWARDED = ["tools", "resources", "prompts", "completions", "logging"] as const;

/**
 * Connects to the MCP server at the other end of `transport` and returns an McpServer that
 * offers the same tools, resources, templates and prompts, forwarding every call, read and
 * completion; list changes and resource updates travel on, progress and cancellation
 * follow their request, and what the upstream server asks of its client (elicitation,
 * sampling, roots) is asked of the downstream client whose request it is serving.
 */
export async function createProxy(transport: Transport, options: ProxyOptions = {}): Promise<McpProxy> {
  const { client: clientOptions, ...serverOptions } = options;
  const routing = new RequestRouting();
  const urlElicitations = new UrlElicitations();
  const client = new Client({
    name: "mcpkit-proxy",
    version: "0.1.0",
    ...clientOptions,
    capabilities: { elicitation: { form: {}, url: {} }, ...clientOptions?.capabilities },
    elicitation: (params, c) =>
      ask(routing, (ctx) =>
        params.mode === "url"
          ? urlElicitations.remember(params.elicitationId, ctx).elicit({
              mode: "url",
              message: params.message,
              url: params.url,
              elicitationId: params.elicitationId,
              ...(c.inputKey !== undefined && { key: c.inputKey }),
            })
          : ctx.elicit({
              message: params.message,
              schema: params.requestedSchema,
              ...(c.inputKey !== undefined && { key: c.inputKey }),
            }),
      ),
    sampling: (params, c) =>
      ask(routing, (ctx) => ctx.sample(params, c.inputKey === undefined ? undefined : { key: c.inputKey })),
    listRoots: (c) => ask(routing, (ctx) => ctx.listRoots(c.inputKey === undefined ? undefined : { key: c.inputKey })),
  });
  const described = await client.connect(transport);
  const upstreamCaps = described.capabilities;

  const declared: ServerCapabilities = {};
  for (const key of FORWARDED) if (upstreamCaps[key]) declared[key] = upstreamCaps[key] as never;
  if (declared.tools) declared.tools = { ...declared.tools, listChanged: true };
  if (declared.prompts) declared.prompts = { ...declared.prompts, listChanged: true };
  if (declared.resources) declared.resources = { ...declared.resources, listChanged: true, subscribe: true };
  const { name, version, title, description, icons, websiteUrl } = described.serverInfo;
  const server = new McpServer({
    name,
    version,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    ...(icons && { icons }),
    ...(websiteUrl !== undefined && { websiteUrl }),
    ...(described.instructions !== undefined && { instructions: described.instructions }),
    ...serverOptions,
    capabilities: { ...declared, ...serverOptions.capabilities },
  });

  const upstream: Upstream = {
    client,
    run: async (ctx, work) => ownFieldsOnly(await routing.run(ctx, () => work(forwardOptions(ctx)))),
    completer: (ref: CompleteRef, argument: string): Completer => {
      return (value, { arguments: args, ctx }) =>
        routing.run(ctx, async () => {
          const { completion } = await client.complete(
            { ref, argument: { name: argument, value }, context: { arguments: args } },
            forwardOptions(ctx),
          );
          return completion;
        });
    },
  };

  const subscribed = new Set<string>();
  const onError = (error: unknown) => server.onError(error);
  const mirrored = {
    tools: new MirroredSet(server.tools, "Tool"),
    prompts: new MirroredSet(server.prompts, "Prompt"),
    resources: new MirroredSet(server.resources, "Resource"),
    templates: new MirroredSet(server.templates, "Resource template"),
  };
  const sync = {
    tools: async () => {
      if (!upstreamCaps.tools) return;
      const tools = await everyPage<Tool>((cursor) => client.listTools(cursor), "tools");
      mirrored.tools.sync(
        tools.map((t) => toolFrom(t, upstream)),
        onError,
      );
    },
    prompts: async () => {
      if (!upstreamCaps.prompts) return;
      const prompts = await everyPage<Prompt>((cursor) => client.listPrompts(cursor), "prompts");
      mirrored.prompts.sync(
        prompts.map((p) => promptFrom(p, upstream)),
        onError,
      );
    },
    resources: async () => {
      if (!upstreamCaps.resources) return;
      const [resources, templates] = await Promise.all([
        everyPage<Resource>((cursor) => client.listResources(cursor), "resources"),
        everyPage<ResourceTemplate>((cursor) => client.listResourceTemplates(cursor), "resourceTemplates"),
      ]);
      mirrored.resources.sync(
        resources.map((r) => resourceFrom(r, upstream)),
        onError,
      );
      mirrored.templates.sync(usableTemplates(templates, upstream, onError), onError);
      if (upstreamCaps.resources.subscribe) await followUpdates(client, resources, subscribed, server);
    },
  };
  // One sync per list at a time: a change during a sync is read by the next one.
  const queued: Record<string, Promise<void>> = {};
  const resync = (kind: keyof typeof sync) => {
    queued[kind] = (queued[kind] ?? Promise.resolve()).then(sync[kind]).catch((error) => server.onError(error));
    return queued[kind];
  };
  const refresh = async () => {
    await Promise.all([resync("tools"), resync("prompts"), resync("resources")]);
  };

  client.on("notifications/tools/list_changed", () => void resync("tools"));
  client.on("notifications/prompts/list_changed", () => void resync("prompts"));
  client.on("notifications/resources/list_changed", () => void resync("resources"));
  client.on("notifications/resources/updated", (params) => {
    const uri = params.uri;
    if (typeof uri === "string") server.resourceUpdated(uri);
  });
  client.on("notifications/elicitation/complete", (params) => {
    if (typeof params.elicitationId === "string") urlElicitations.complete(params.elicitationId);
  });
  client.on("notifications/message", (params) => {
    const { level, data, logger } = params as { level?: LogLevel; data?: unknown; logger?: string };
    // A log names no request: it goes to the newest one running, as the upstream server meant it for a caller.
    if (level) routing.newest()?.log(level, data, logger);
  });
  if (upstreamCaps.logging) await client.setLogLevel("debug").catch((error) => server.onError(error));
  await refresh();
  const filter: SubscriptionFilter = {
    ...(upstreamCaps.tools?.listChanged && { toolsListChanged: true }),
    ...(upstreamCaps.prompts?.listChanged && { promptsListChanged: true }),
    ...(upstreamCaps.resources?.listChanged && { resourcesListChanged: true }),
  };
  if (Object.keys(filter).length > 0) await client.listen(filter, () => {}).catch((error) => server.onError(error));

  return {
    server,
    client,
    refresh,
    async close() {
      await server.close();
      await client.close();
    },
  };
}

/**
 * Which downstream request each URL-mode elicitation was asked for, so the upstream's
 * notifications/elicitation/complete reaches the same client. The newest 1000 are kept.
 */
class UrlElicitations {
  private readonly asked = new Map<string, Context>();

  remember(elicitationId: string, ctx: Context): Context {
    this.asked.set(elicitationId, ctx);
    if (this.asked.size > 1000) this.asked.delete(this.asked.keys().next().value as string);
    return ctx;
  }

  complete(elicitationId: string): void {
    this.asked.get(elicitationId)?.elicitationComplete(elicitationId);
    this.asked.delete(elicitationId);
  }
}

/** The options of an upstream request made for `ctx`: its cancellation, progress and trace context. */
function forwardOptions(ctx: Context): CallOptions {
  const trace = Object.keys(ctx.trace).length > 0 ? ctx.trace : undefined;
  const { sampling, elicitation, roots } = ctx.client.capabilities;
  return {
    signal: ctx.signal,
    // A modern upstream asks only for what the caller can answer (legacy ones learned ours at initialize).
    capabilities: {
      ...(sampling && { sampling }),
      ...(elicitation && { elicitation }),
      ...(roots && { roots: {} }),
    },
    ...(ctx.meta?.progressToken !== undefined && {
      onprogress: (p) => ctx.progress(p.progress, p.total, p.message),
    }),
    ...(trace && { meta: trace }),
  };
}

/**
 * A result without what the upstream server said about itself as a 2026-07-28 server
 * (resultType, caching hints, its serverInfo): this server says its own, in its own era.
 */
function ownFieldsOnly<T>(result: T): T {
  if (typeof result !== "object" || result === null) return result;
  const { resultType: _r, ttlMs: _t, cacheScope: _c, ...rest } = result as Record<string, unknown>;
  const meta = rest._meta as Record<string, unknown> | undefined;
  if (meta && META.serverInfo in meta) {
    const { [META.serverInfo]: _s, ...others } = meta;
    if (Object.keys(others).length > 0) rest._meta = others;
    else delete rest._meta;
  }
  return rest as T;
}

/** Asks the downstream client for the request being served; its refusal is the upstream's answer. */
async function ask<T>(routing: RequestRouting, question: (ctx: Context) => Promise<T>): Promise<T> {
  const ctx = routing.current();
  if (!ctx)
    throw new McpError(ErrorCode.InvalidRequest, "The proxy has no request in progress to ask its own client about");
  try {
    return await question(ctx);
  } catch (error) {
    if (error instanceof ClientRequestError) throw new McpError(error.code, error.message, error.data);
    throw error;
  }
}

async function everyPage<T>(
  fetch: (cursor: string | undefined) => Promise<JsonObject | object>,
  key: string,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = (await fetch(cursor)) as Record<string, unknown>;
    items.push(...((page[key] as T[] | undefined) ?? []));
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    if (cursor !== undefined && seen.has(cursor)) throw new Error(`The upstream server repeated a ${key} cursor`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return items;
}

/** Templates this server can match; one it cannot parse is reported and left out. */
function usableTemplates(templates: ResourceTemplate[], upstream: Upstream, onError: (error: unknown) => void) {
  return templates.flatMap((t) => {
    try {
      return [templateFrom(t, upstream)];
    } catch (error) {
      onError(error);
      return [];
    }
  });
}

/**
 * Subscribes upstream to every listed resource, so its updates can reach the downstream
 * sessions that subscribed (the server sends each only to those).
 */
async function followUpdates(client: Client, resources: Resource[], subscribed: Set<string>, server: McpServer) {
  const now = new Set(resources.map((r) => r.uri));
  const changes: Promise<void>[] = [];
  for (const uri of now) if (!subscribed.has(uri)) changes.push(client.subscribe(uri));
  for (const uri of subscribed) if (!now.has(uri)) changes.push(client.unsubscribe(uri));
  subscribed.clear();
  for (const uri of now) subscribed.add(uri);
  for (const result of await Promise.allSettled(changes))
    if (result.status === "rejected") server.onError(result.reason);
}
