import { Client } from "../client/client.js";
import type { ClientOptions } from "../client/client-options.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { revisionRules } from "../protocol/revisions.js";
import type { ClientCapabilities } from "../protocol/types/capabilities.js";
import type { LogLevel } from "../protocol/types/common.js";
import type { CreateMessageResult, ElicitResult, Root } from "../protocol/types/features.js";
import type { ListKind } from "../server/events.js";
import type { Context } from "../server/handler-context.js";
import type { ServerSession } from "../server/server-session.js";
import type { Transport } from "../transports/transport.js";
import { askCaller, type UrlElicitations } from "./forward.js";
import type { ProxyOptions } from "./proxy-options.js";
import { RequestRouting } from "./routing.js";
import { upstreamFailure } from "./upstream-errors.js";

/**
 * One connection to the upstream server, and whom it serves: one downstream session
 * (what the upstream asks outside a call, its logs and its subscriptions belong to that
 * session), or every caller (the shared connection).
 */
export interface UpstreamConnection {
  readonly client: Client;
  /** The downstream session it belongs to; undefined for the shared connection. */
  readonly session: ServerSession | undefined;
  /** The calls in progress on it. */
  readonly routing: RequestRouting;
  /** Resolves once it has closed, with the reason when it failed (a process that exited). */
  readonly closed: Promise<Error | undefined>;
  /** Watches `uri` for one subscriber, subscribed upstream while anyone watches; returns the unwatch. */
  watch(uri: string, changed: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ConnectionSetup {
  transport: Transport;
  client: ProxyOptions["client"];
  /** The downstream session it serves; undefined for the shared connection. */
  session: ServerSession | undefined;
  urlElicitations: UrlElicitations;
  onListChanged(kind: ListKind): void;
  onClose(reason: Error | undefined): void;
  onError(error: unknown): void;
}

/** What the upstream asked when nobody can answer: the shared connection's request that names no caller. */
const noCaller = (method: string) =>
  new McpError(
    ErrorCode.InvalidRequest,
    `${method} cannot be answered: this proxy connection serves several callers, and the request does not say which of their calls it is for`,
  );

/** Connects, with the handlers that route what the upstream asks to the caller it concerns. */
export async function openConnection(setup: ConnectionSetup): Promise<UpstreamConnection> {
  const { session, urlElicitations } = setup;
  const routing = new RequestRouting();
  let markClosed!: (reason: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => {
    markClosed = resolve;
  });

  /** The call the question is for; else this connection's session; else `outside` (the shared connection). */
  const answer = <T>(
    question: (ctx: Context) => Promise<T>,
    onSession: (session: ServerSession) => Promise<T>,
    outside: () => T,
  ): Promise<T> => {
    const ctx = routing.current();
    if (ctx) return askCaller(ctx, question);
    if (session) return onSession(session);
    return Promise.resolve().then(outside);
  };
  const key = (inputKey: string | undefined) => (inputKey === undefined ? undefined : { key: inputKey });

  const handlers: Pick<ClientOptions, "elicitation" | "sampling" | "listRoots"> = {
    elicitation: (params, c) =>
      answer(
        (ctx) => {
          if (params.mode !== "url")
            return ctx.elicit({ message: params.message, schema: params.requestedSchema, ...key(c.inputKey) });
          urlElicitations.remember(params.elicitationId, (id) => ctx.elicitationComplete(id));
          const { message, url, elicitationId } = params;
          return ctx.elicit({ mode: "url", message, url, elicitationId, ...key(c.inputKey) });
        },
        async (s) => {
          if (params.mode === "url" && s.revision && revisionRules(s.revision).urlElicitation)
            urlElicitations.remember(params.elicitationId, (elicitationId) =>
              s.notify("notifications/elicitation/complete", { elicitationId }),
            );
          return s.request<ElicitResult>("elicitation/create", params);
        },
        () => {
          throw noCaller("elicitation/create");
        },
      ),
    sampling: (params, c) =>
      answer(
        (ctx) => ctx.sample(params, key(c.inputKey)),
        (s) => s.request<CreateMessageResult>("sampling/createMessage", params),
        () => {
          throw noCaller("sampling/createMessage");
        },
      ),
    listRoots: (c) =>
      answer(
        (ctx) => ctx.listRoots(key(c.inputKey)),
        async (s) => ((await s.request("roots/list", {})).roots ?? []) as Root[],
        // The shared connection has no roots of its own (docs/composition.md).
        () => [],
      ),
  };
  const client = new Client({
    name: "mcpkit-proxy",
    version: "0.1.0",
    ...setup.client,
    onClose: (reason) => {
      markClosed(reason);
      setup.onClose(reason);
      setup.client?.onClose?.(reason);
    },
    ...(session ? declaredBy(session.clientCapabilities, handlers) : sharedDeclarations(setup.client, handlers)),
  });

  const subscriptions = new Map<string, { watchers: Set<() => void>; ready: Promise<void> }>();
  client.on("notifications/resources/updated", (params) => {
    const watchers = typeof params.uri === "string" ? subscriptions.get(params.uri)?.watchers : undefined;
    for (const changed of watchers ?? []) changed();
  });
  client.on("notifications/message", (params) => {
    const { level, data, logger } = params as { level?: LogLevel; data?: unknown; logger?: string };
    if (!level) return;
    // The call it is for, by the rule the upstream's requests follow (RequestRouting), else the
    // connection's session. On the shared connection, a log no call can be named for is no
    // caller's: it is not passed on, never one caller's to another.
    const ctx = routing.current();
    if (ctx) ctx.log(level, data, logger);
    else session?.log(level, data, logger);
  });
  for (const kind of ["tools", "prompts", "resources"] as const)
    client.on(`notifications/${kind}/list_changed`, () => setup.onListChanged(kind));
  client.on("notifications/elicitation/complete", (params) => {
    if (typeof params.elicitationId === "string") urlElicitations.complete(params.elicitationId);
  });

  await client.connect(setup.transport);
  return {
    client,
    session,
    routing,
    closed,
    async watch(uri, changed) {
      let subscription = subscriptions.get(uri);
      if (!subscription) {
        const made = { watchers: new Set<() => void>(), ready: client.subscribe(uri) };
        subscriptions.set(uri, made);
        made.ready.catch(() => {
          if (subscriptions.get(uri) === made) subscriptions.delete(uri);
        });
        subscription = made;
      }
      try {
        await subscription.ready;
      } catch (error) {
        throw upstreamFailure(error);
      }
      const { watchers } = subscription;
      watchers.add(changed);
      return async () => {
        if (!watchers.delete(changed) || watchers.size > 0 || subscriptions.get(uri) !== subscription) return;
        subscriptions.delete(uri);
        // A connection that closed (meanwhile) has no subscriptions left to end.
        if (client.isConnected)
          await client.unsubscribe(uri).catch((error: unknown) => {
            if (client.isConnected) setup.onError(error);
          });
      };
    },
    close: () => client.close(),
  };
}

/** A session's connection declares what that session's client declared, and answers with it. */
function declaredBy(
  caps: ClientCapabilities,
  handlers: Pick<ClientOptions, "elicitation" | "sampling" | "listRoots">,
): Partial<ClientOptions> {
  return {
    ...(caps.sampling && { sampling: handlers.sampling }),
    ...(caps.elicitation && { elicitation: handlers.elicitation }),
    ...(caps.roots && { listRoots: handlers.listRoots }),
    capabilities: {
      ...(caps.sampling && { sampling: caps.sampling }),
      ...(caps.elicitation && { elicitation: caps.elicitation }),
    },
  };
}

/** The shared connection declares everything a caller may be able to answer; each question goes to its caller. */
function sharedDeclarations(
  options: ProxyOptions["client"],
  handlers: Pick<ClientOptions, "elicitation" | "sampling" | "listRoots">,
): Partial<ClientOptions> {
  return { ...handlers, capabilities: { elicitation: { form: {}, url: {} }, ...options?.capabilities } };
}
