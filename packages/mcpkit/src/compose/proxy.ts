import { Client } from "../client/client.js";
import type { ClientOptions } from "../client/options.js";
import type { ServerCapabilities } from "../protocol/types/capabilities.js";
import type { LogLevel } from "../protocol/types/common.js";
import type { CompleteRef, Prompt, Resource, ResourceTemplate, Tool } from "../protocol/types/features.js";
import type { SubscriptionFilter } from "../protocol/types/modern.js";
import { MirroredSet } from "../server/compose/sync.js";
import type { ServerOptions } from "../server/options.js";
import type { Completer } from "../server/registry/completion.js";
import { McpServer } from "../server/server.js";
import type { Transport } from "../transports/transport.js";
import { promptFrom, resourceFrom, toolFrom, type Upstream } from "./entries.js";
import { ask, forwardOptions, ownFieldsOnly, UrlElicitations } from "./forward.js";
import { RequestRouting } from "./routing.js";
import { everyPage, followUpdates, usableTemplates } from "./upstream-lists.js";

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
  /** Resolves once the upstream connection has closed, with the reason when it failed. */
  readonly upstreamClosed: Promise<Error | undefined>;
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
  let markClosed!: (reason: Error | undefined) => void;
  const upstreamClosed = new Promise<Error | undefined>((resolve) => {
    markClosed = resolve;
  });
  const urlElicitations = new UrlElicitations();
  const client = new Client({
    name: "mcpkit-proxy",
    version: "0.1.0",
    ...clientOptions,
    onClose: (reason) => {
      markClosed(reason);
      clientOptions?.onClose?.(reason);
    },
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
    // A log names no request: see RequestRouting.unnamed for who gets it.
    if (level) routing.unnamed()?.log(level, data, logger);
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
    upstreamClosed,
    async close() {
      await server.close();
      await client.close();
    },
  };
}
