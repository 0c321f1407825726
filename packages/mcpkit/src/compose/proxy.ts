import type { Client } from "../client/client.js";
import type { CallOptions } from "../client/eras/client-era.js";
import { implementationOf } from "../protocol/implementation.js";
import { SKILLS_EXTENSION, type SkillEntry } from "../protocol/skills.js";
import type { CompleteRef, Prompt, Resource, ResourceTemplate, Tool } from "../protocol/types/features.js";
import type { SubscriptionFilter } from "../protocol/types/modern.js";
import { LEGACY_REVISIONS } from "../protocol/versions.js";
import { MirroredSet } from "../server/compose/sync.js";
import type { ServerDefinition } from "../server/definition.js";
import type { ListKind } from "../server/events.js";
import type { Context } from "../server/handler-context.js";
import { definitionOf, type McpServer } from "../server/mcp-server.js";
import type { Completer } from "../server/registry/completer.js";
import type { FeatureSet } from "../server/registry/feature-set.js";
import type { SkillDefinition } from "../server/registry/skill.js";
import type { ServerSession } from "../server/server-session.js";
import type { Transport } from "../transports/transport.js";
import { mirroredEntries, promptFrom, resourceFrom, skillFrom, toolFrom, type Upstream } from "./entries.js";
import { forwardOptions, ownFieldsOnly, UrlElicitations } from "./forward.js";
import { coalesced, everyPage } from "./mirror.js";
import { mirrorServer } from "./mirror-server.js";
import { mirroredCapabilities, runsToolsAsTasks } from "./mirrored-capabilities.js";
import { proxyEvent } from "./proxy-event.js";
import type { ProxyOptions, UpstreamConnector } from "./proxy-options.js";
import { usableTemplates } from "./templates.js";
import { openConnection, type UpstreamConnection } from "./upstream-connection.js";
import { DEFAULT_MAX_UPSTREAMS, SessionConnections } from "./upstream-connections.js";
import { callFailure, exitOf } from "./upstream-exit.js";

export type { MirrorLimits, ProxyOptions, UpstreamConnector } from "./proxy-options.js";

/** An MCP server reached by a Client, served again as an McpServer. */
export interface McpProxy {
  /** Serve it like any McpServer: connect a transport, or hand it to an HTTP endpoint. */
  readonly server: McpServer;
  /** The client of the shared upstream connection (the one the lists are read on). */
  readonly client: Client;
  /** Reads every list from the upstream server again (list_changed does this by itself). */
  refresh(): Promise<void>;
  /** Resolves once the shared upstream connection has closed, with the reason when it failed. */
  readonly upstreamClosed: Promise<Error | undefined>;
  /**
   * Whether a new client session can be served now: undefined, or why not with when to
   * come back (every per-session upstream connection busy with a call; maxUpstreams). An
   * HTTP endpoint answers 503 with Retry-After then (`createStreamableHttpHandler`'s
   * `admitSession`).
   */
  admitSession(): { message: string; retryAfterSeconds: number } | undefined;
  /**
   * Tells the upstream connection of `session` that its client's roots changed (the
   * proxy's own sessions do this by themselves; a server the proxy is mounted in passes its
   * sessions' `notifications/roots/list_changed` on with this). Nothing without one.
   */
  rootsChanged(session: ServerSession): Promise<void>;
  /** Closes the server's sessions, then the upstream connections. */
  close(): Promise<void>;
}

/**
 * What the upstream connections' hooks reach, filled in as the proxy is made: the upstream
 * describes itself (on the shared connection, whose hooks may fire at once) before the
 * server that mirrors it can exist.
 */
interface ProxyState {
  /** Settles `upstreamClosed`: the shared connection closed, with the reason when it failed. */
  markClosed: (reason: Error | undefined) => void;
  /** The mirroring server, once made. */
  server: McpServer | undefined;
  /** What it holds, once made: errors go to its onError. */
  definition: ServerDefinition | undefined;
  /** One upstream connection per downstream session: for a legacy upstream with a connector. */
  sessions: SessionConnections | undefined;
}

/**
 * Connects to an MCP server and returns an McpServer that offers the same tools,
 * resources, templates, prompts and skills, and declares exactly its capabilities. Calls,
 * reads, completions and subscriptions are forwarded (any URI, templates' included);
 * progress and cancellation follow their request; tasks run as the proxy's own tasks that
 * follow the upstream's; what the upstream asks of its client (elicitation, sampling,
 * roots) is asked of the caller it concerns.
 *
 * `upstream` is one connection (a Transport), or a connector that opens one: then a
 * server that keeps a session per connection (revisions up to 2025-11-25) gets one
 * connection per downstream session (ProxyOptions.upstreamSessions; docs/composition.md).
 */
export async function createProxy(
  upstream: Transport | UpstreamConnector,
  options: ProxyOptions = {},
): Promise<McpProxy> {
  const { client: clientOptions, upstreamSessions, mirror: limits, maxUpstreams, ...serverOptions } = options;
  const connector = typeof upstream === "function" ? upstream : undefined;
  const state: ProxyState = { markClosed: () => {}, server: undefined, definition: undefined, sessions: undefined };
  const upstreamClosed = new Promise<Error | undefined>((resolve) => {
    state.markClosed = resolve;
  });
  const urlElicitations = new UrlElicitations();
  const onError = (error: unknown) => state.definition?.onError(error);
  const resync: Record<ListKind, () => Promise<void>> = {
    tools: coalesced(() => sync.tools()),
    prompts: coalesced(() => sync.prompts()),
    resources: coalesced(() => sync.resources()),
  };
  const onListChanged = (kind: ListKind) => void resync[kind]().catch(onError);

  const shared = await openConnection({
    transport: connector ? connector() : (upstream as Transport),
    client: clientOptions,
    session: undefined,
    urlElicitations,
    onListChanged,
    onClose: (reason) => state.markClosed(reason),
    onError,
  });
  const client = shared.client;
  const upstreamCaps = client.serverCapabilities ?? {};
  // A legacy server keeps a session per connection: give each downstream session its own.
  const perSession = connector !== undefined && upstreamSessions !== "shared" && client.protocolEra === "legacy";

  const server = mirrorServer(
    {
      ...implementationOf(client.serverInfo ?? { name: "", version: "" }),
      ...(client.instructions !== undefined && { instructions: client.instructions }),
      // It speaks the era its upstream speaks: a caller of 2026-07-28 could not be given what
      // a stateful server asks outside a call (its roots). `revisions` bridges the eras anyway.
      ...(client.protocolEra === "legacy" && { revisions: LEGACY_REVISIONS }),
      ...serverOptions,
      onSession: (session) => {
        void state.sessions?.open(session);
        serverOptions.onSession?.(session);
      },
      onNotification: (notification, session) => {
        // The session's roots changed: its upstream connection tells the server, which asks again.
        if (notification.method === "notifications/roots/list_changed")
          void state.sessions
            ?.get(session)
            .then((c) => c.client.setRoots([]))
            .catch(onError);
        serverOptions.onNotification?.(notification, session);
      },
    },
    mirroredCapabilities(upstreamCaps, {
      // 2024-11-05 had completion with no capability to declare it: a caller of a later
      // revision must see it declared, or it will not ask.
      ...(client.protocolVersion === "2024-11-05" &&
        (upstreamCaps.prompts || upstreamCaps.resources) && { completions: {} }),
      ...serverOptions.capabilities,
    }),
  );
  const definition = definitionOf(server);
  state.server = server;
  state.definition = definition;
  if (perSession && connector)
    state.sessions = new SessionConnections(
      async (session) => {
        // Re-run when this connection's lists change (see narrowToSession), once it is open.
        const own: { connection: UpstreamConnection | undefined } = { connection: undefined };
        const renarrow = coalesced(async () => {
          if (own.connection) await narrowToSession(own.connection, session);
        });
        const narrow = () => void renarrow().catch(onError);
        own.connection = await openConnection({
          transport: connector(),
          client: clientOptions,
          session,
          urlElicitations,
          onListChanged: (kind) => {
            onListChanged(kind);
            if (kind !== "resources") narrow();
          },
          // The session's server went away: so does the session (its client starts a new one),
          // once the calls it was serving have been told why. The exit is reported.
          onClose: (reason) => {
            // A reason: it ended by itself (a process that exited, a connection that failed),
            // not because its session did. That is reported.
            const exit = exitOf(reason);
            if (reason)
              onError(
                proxyEvent(
                  `The server behind a client session ${exit ? `stopped: ${exit}` : "closed the connection"}; that session is closed`,
                ),
              );
            const idle = own.connection ? own.connection.routing.whenIdle() : Promise.resolve();
            idle
              .then(() => new Promise((resolve) => setImmediate(resolve)))
              .then(() => session.close())
              .catch(onError);
          },
          onError,
        });
        narrow();
        return own.connection;
      },
      onError,
      // The shared connection (which reads the lists) counts: maxUpstreams is every process at once.
      Math.max(1, (maxUpstreams ?? DEFAULT_MAX_UPSTREAMS) - 1),
    );

  /**
   * What a session is shown of the tools and prompts: those its own upstream connection
   * lists. The mirror is read on the shared connection, which declares every capability a
   * caller may have; a server that offers tools by the client's capabilities (sampling,
   * elicitation) offers this session fewer, and the others are hidden from it.
   */
  async function narrowToSession(connection: UpstreamConnection, session: ServerSession) {
    // A session of a server this one is mounted in knows these names under a prefix: left as it is.
    if (!server.sessions.has(session)) return;
    const { client: own } = connection;
    const [tools, prompts] = await Promise.all([
      upstreamCaps.tools ? everyPage<Tool>((c, signal) => own.listTools(c, { signal }), "tools", limits) : [],
      upstreamCaps.prompts ? everyPage<Prompt>((c, signal) => own.listPrompts(c, { signal }), "prompts", limits) : [],
    ]);
    const offered = new Set([...tools.map((t) => t.name), ...prompts.map((p) => p.name)]);
    for (const entry of [...definition.tools.all(), ...definition.prompts.all()]) {
      if (!mirroredEntries.has(entry)) continue;
      if (offered.has(entry.key)) session.enable(entry.key);
      else session.disable(entry.key);
    }
  }

  const connectionFor = (session: ServerSession | undefined): UpstreamConnection | Promise<UpstreamConnection> =>
    (session && state.sessions?.get(session)) ?? shared;
  const forwarded: Upstream = {
    async run(ctx, work) {
      const connection = await connectionFor(ctx.session);
      try {
        return ownFieldsOnly(await connection.routing.run(ctx, () => work(connection.client, forwardOptions(ctx))));
      } catch (error) {
        throw await callFailure(error, connection.closed);
      }
    },
    completer: (ref: CompleteRef, argument: string): Completer => {
      return (value, { arguments: args, ctx }) =>
        forwarded.run(ctx, async (c, callOptions: CallOptions) => {
          const params = { ref, argument: { name: argument, value }, context: { arguments: args } };
          return (await c.complete(params, callOptions)).completion;
        });
    },
    taskMode(tool: Tool) {
      if (!runsToolsAsTasks(upstreamCaps)) return undefined;
      if (client.protocolEra === "modern") return "always";
      const support = tool.execution?.taskSupport;
      return support === "required" ? "always" : support === "optional" ? "asked" : undefined;
    },
  };
  /** A subscription to a mirrored resource: watched on the connection of the subscriber's session. */
  const watch = async (uri: string, ctx: Context, changed: () => void) =>
    (await connectionFor(ctx.session)).watch(uri, changed);

  const mirrored = {
    tools: new MirroredSet(definition.tools, "Tool"),
    prompts: new MirroredSet(definition.prompts, "Prompt"),
    resources: new MirroredSet(definition.resources, "Resource"),
    templates: new MirroredSet(definition.templates, "Resource template"),
    skills: new MirroredSet(definition.skills as FeatureSet<SkillDefinition & { definition: SkillEntry }>, "Skill"),
  };
  const sync = {
    tools: async () => {
      if (!upstreamCaps.tools) return;
      const tools = await everyPage<Tool>((cursor, signal) => client.listTools(cursor, { signal }), "tools", limits);
      mirrored.tools.sync(
        tools.map((t) => toolFrom(t, forwarded)),
        onError,
      );
    },
    prompts: async () => {
      if (!upstreamCaps.prompts) return;
      const prompts = await everyPage<Prompt>(
        (cursor, signal) => client.listPrompts(cursor, { signal }),
        "prompts",
        limits,
      );
      mirrored.prompts.sync(
        prompts.map((p) => promptFrom(p, forwarded)),
        onError,
      );
    },
    resources: async () => {
      if (!upstreamCaps.resources) return;
      const [resources, templates, skills] = await Promise.all([
        everyPage<Resource>((cursor, signal) => client.listResources(cursor, { signal }), "resources", limits),
        everyPage<ResourceTemplate>(
          (cursor, signal) => client.listResourceTemplates(cursor, { signal }),
          "resourceTemplates",
          limits,
        ),
        upstreamCaps.extensions?.[SKILLS_EXTENSION]
          ? everyPage<SkillEntry>(
              (cursor, signal) => client.request("skills/list", cursor === undefined ? {} : { cursor }, { signal }),
              "skills",
              limits,
            )
          : Promise.resolve([]),
      ]);
      const subscribe = upstreamCaps.resources.subscribe ? watch : undefined;
      mirrored.resources.sync(
        resources.map((r) => ({ ...resourceFrom(r, forwarded), ...(subscribe && { subscribe }) })),
        onError,
      );
      mirrored.templates.sync(usableTemplates(templates, forwarded, subscribe, onError), onError);
      const byUri = new Map(resources.map((r) => [r.uri, r]));
      mirrored.skills.sync(
        skills.map((s) => skillFrom(s, (uri) => byUri.get(uri))),
        onError,
      );
    },
  };
  const refresh = async () => {
    await Promise.all([resync.tools(), resync.prompts(), resync.resources()]);
  };

  try {
    if (upstreamCaps.logging && !perSession) await client.setLogLevel("debug").catch(onError);
    // What the proxy cannot mirror, it cannot serve: the first reading must succeed.
    await refresh();
  } catch (error) {
    await shared.close();
    throw error;
  }
  const filter: SubscriptionFilter = {
    ...(upstreamCaps.tools?.listChanged && { toolsListChanged: true }),
    ...(upstreamCaps.prompts?.listChanged && { promptsListChanged: true }),
    ...(upstreamCaps.resources?.listChanged && { resourcesListChanged: true }),
  };
  if (Object.keys(filter).length > 0) await client.listen(filter, () => {}).catch(onError);

  return {
    server,
    client,
    refresh,
    upstreamClosed,
    async rootsChanged(session) {
      const connection = await state.sessions?.held(session);
      await connection?.client.setRoots([]);
    },
    admitSession() {
      const refusal = state.sessions?.refusal();
      if (!refusal) return undefined;
      const { retryAfterMs } = refusal.data as { retryAfterMs: number };
      return { message: refusal.message, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    },
    async close() {
      await server.close();
      await state.sessions?.close();
      await shared.close();
    },
  };
}
