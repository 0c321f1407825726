import type { LogLevel, ReadResourceResult, Root } from "mcpkit";
import type { CallOptions, Progress } from "mcpkit/client";
import type { AppViews } from "./app-views.js";
import type { Reply } from "./asks.js";
import { OpError } from "./op-error.js";
import { checkHeaders, httpUrl, stdioTarget, type TargetRequest } from "./page-target.js";
import type { ConnectChange, InspectorSession } from "./session.js";
import { isProtocolChoice } from "./target.js";

export { OpError };

/** What an operation is given besides the page's JSON body. */
export interface OpContext {
  session: InspectorSession;
  views: AppViews;
  /** Calls in flight, by the page's id for them, so the page can cancel them. */
  calls: Map<string, AbortController>;
}

type Body = Record<string, unknown>;
type Op = (body: Body, ctx: OpContext) => Promise<unknown>;

const text = (body: Body, key: string): string => {
  const value = body[key];
  if (typeof value !== "string") throw new OpError(`"${key}" must be a string`);
  return value;
};
const object = (body: Body, key: string): Record<string, unknown> => {
  const value = body[key] ?? {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new OpError(`"${key}" must be an object`);
  return value as Record<string, unknown>;
};

/**
 * A call the page may cancel: its AbortSignal is kept under the page's call id, and its
 * progress notifications reach the page under that id.
 */
function cancellable(body: Body, ctx: OpContext): { options: CallOptions; done: () => void } {
  const callId = typeof body.callId === "string" ? body.callId : undefined;
  if (!callId) return { options: {}, done: () => {} };
  const controller = new AbortController();
  ctx.calls.set(callId, controller);
  return {
    options: {
      signal: controller.signal,
      onprogress: (progress: Progress) => ctx.session.emit({ type: "progress", callId, progress }),
    },
    done: () => ctx.calls.delete(callId),
  };
}

/**
 * A new target from the page: a URL always, with the headers the page gives for it (the
 * command line's go to their own origin only, credentials.ts); a command only as
 * page-target.ts allows.
 */
function targetChange(body: Body & TargetRequest, ctx: OpContext): ConnectChange {
  if (body.env !== undefined) return { target: stdioTarget({ ...body, command: String(body.command) }, policy(ctx)) };
  if (typeof body.url === "string") {
    const url = httpUrl(body.url);
    const remove = body.removeHeaders ?? [];
    if (!Array.isArray(remove) || remove.some((name) => typeof name !== "string"))
      throw new OpError('"removeHeaders" must be a list of header names');
    return {
      target: { kind: "http", url, headers: {} },
      headers: { set: checkHeaders(object(body, "headers")), remove },
    };
  }
  if (typeof body.command === "string") return { target: stdioTarget({ ...body, command: body.command }, policy(ctx)) };
  return {};
}

const policy = (ctx: OpContext) => ({ given: ctx.session.given, allowSpawn: ctx.session.allowSpawn });

/**
 * Everything the page can ask of the inspected server, by name: each is one call of
 * mcpkit's public Client. POST /api/<name> with a JSON body; the answer is `{ value }` or
 * `{ error }`.
 */
export const OPS: Record<string, Op> = {
  connect: async (body, ctx) => {
    const protocol = typeof body.protocol === "string" ? body.protocol : undefined;
    if (protocol !== undefined && !isProtocolChoice(protocol))
      throw new OpError(`"${protocol}" is not auto, legacy, modern or a revision mcpkit speaks`);
    await ctx.session.connect({ ...(protocol && { protocol }), ...targetChange(body, ctx) });
    return ctx.session.state();
  },

  disconnect: async (_body, ctx) => {
    await ctx.session.disconnect();
    return ctx.session.state();
  },

  ping: async (_body, ctx) => {
    const started = performance.now();
    await ctx.session.client.ping();
    return { ms: Math.round(performance.now() - started) };
  },

  list: async (body, ctx) => {
    const client = ctx.session.client;
    switch (body.kind) {
      case "tools":
        return client.tools();
      case "resources":
        return client.resources();
      case "templates":
        return client.resourceTemplates();
      case "prompts":
        return client.prompts();
      default:
        throw new OpError(`Nothing to list called "${String(body.kind)}"`);
    }
  },

  "tools/call": async (body, ctx) => {
    const { options, done } = cancellable(body, ctx);
    const name = text(body, "name");
    const args = object(body, "arguments");
    const client = ctx.session.client;
    try {
      if (body.asTask === true) {
        const started = await client.callToolAsTask(name, args, options);
        if (started.result) return { result: started.result };
        const task = started.task;
        if (task.latest) ctx.session.noteTask(task.latest);
        try {
          const result = await task.result({
            ...(options.signal && { signal: options.signal }),
            onUpdate: (update) => ctx.session.noteTask(update),
          });
          return { result, taskId: task.taskId };
        } catch (error) {
          // Cancelling the call in the page cancels the task on the server too.
          if (options.signal?.aborted) await task.cancel().catch(() => undefined);
          throw error;
        }
      }
      return { result: await client.callTool(name, args, options) };
    } catch (error) {
      // server/tools §Output Schema: the result is still shown, with what is wrong with it.
      const { ToolOutputError } = await import("mcpkit/client");
      if (error instanceof ToolOutputError) return { result: error.result, outputError: error.message };
      throw error;
    } finally {
      done();
    }
  },

  cancel: async (body, ctx) => {
    const controller = ctx.calls.get(text(body, "callId"));
    controller?.abort(new Error("Cancelled in the inspector"));
    return { cancelled: controller !== undefined };
  },

  "resources/read": async (body, ctx) => ctx.session.client.readResource(text(body, "uri")),

  "resources/subscribe": async (body, ctx) => {
    await ctx.session.client.subscribe(text(body, "uri"));
    return {};
  },

  "resources/unsubscribe": async (body, ctx) => {
    await ctx.session.client.unsubscribe(text(body, "uri"));
    return {};
  },

  "completion/complete": async (body, ctx) => {
    const ref = object(body, "ref");
    const argument = object(body, "argument");
    const context = body.context === undefined ? undefined : object(body, "context");
    return ctx.session.client.complete({
      ref: ref as never,
      argument: { name: String(argument.name), value: String(argument.value ?? "") },
      ...(context && { context: context as never }),
    });
  },

  "prompts/get": async (body, ctx) => {
    const { options, done } = cancellable(body, ctx);
    try {
      const args = Object.fromEntries(Object.entries(object(body, "arguments")).map(([k, v]) => [k, String(v)]));
      return await ctx.session.client.getPrompt(text(body, "name"), args, options);
    } finally {
      done();
    }
  },

  "logging/setLevel": async (body, ctx) => {
    await ctx.session.client.setLogLevel(text(body, "level") as LogLevel);
    return {};
  },

  roots: async (body, ctx) => {
    if (!Array.isArray(body.roots)) throw new OpError('"roots" must be a list');
    const roots: Root[] = body.roots.map((root) => {
      const { uri, name } = (root ?? {}) as { uri?: unknown; name?: unknown };
      if (typeof uri !== "string" || !/^[a-z][a-z0-9+.-]*:/i.test(uri))
        throw new OpError(`A root needs a URI (file:///…), not ${JSON.stringify(uri)}`);
      return typeof name === "string" && name ? { uri, name } : { uri };
    });
    ctx.session.setRoots(roots);
    return { roots };
  },

  answer: async (body, ctx) => {
    const reply = body.reply as Reply | undefined;
    if (!reply || (!("result" in reply) && !("refuse" in reply))) throw new OpError('"reply" needs result or refuse');
    return { delivered: ctx.session.asks.answer(Number(body.id), reply) };
  },

  "tasks/list": async (_body, ctx) => {
    const session = ctx.session;
    // 2025-11-25 lists a session's tasks; 2026-07-28 has no tasks/list, so the page shows those it saw.
    if (session.client.protocolEra === "legacy" && session.client.serverCapabilities?.tasks) {
      const listed = await session.client.request<{ tasks?: unknown[] }>("tasks/list", {});
      for (const task of listed.tasks ?? []) session.noteTask(task as never);
    }
    return [...session.tasks.values()];
  },

  "tasks/get": async (body, ctx) => {
    const task = await ctx.session.client.task(text(body, "taskId")).get();
    ctx.session.noteTask(task);
    return task;
  },

  "tasks/cancel": async (body, ctx) => {
    const handle = ctx.session.client.task(text(body, "taskId"));
    await handle.cancel();
    const task = await handle.get();
    ctx.session.noteTask(task);
    return task;
  },

  "tasks/result": async (body, ctx) => ctx.session.client.task(text(body, "taskId")).result(),

  "skills/list": async (_body, ctx) => ctx.session.client.skills(),

  "skills/load": async (body, ctx) => {
    const skill = await ctx.session.client.loadSkill(text(body, "uri"), {
      allowUnverified: body.allowUnverified === true,
    });
    return { entry: skill.entry, text: skill.text };
  },

  /**
   * MCP Apps: reads a ui:// view and registers it to be served under its own CSP. The
   * page frames /views/<id> and plays the host (ui/initialize, tool input and result).
   */
  "app/open": async (body, ctx) => {
    const uri = text(body, "uri");
    if (!uri.startsWith("ui://")) throw new OpError(`An app view is a ui:// resource, not ${uri}`);
    const read: ReadResourceResult = await ctx.session.client.readResource(uri);
    const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
    if (!content) throw new OpError(`${uri} has no content`);
    const html = "text" in content ? content.text : Buffer.from(content.blob, "base64").toString("utf8");
    const ui = ((content._meta as { ui?: Record<string, unknown> } | undefined)?.ui ?? {}) as {
      csp?: Record<string, unknown>;
      permissions?: Record<string, unknown>;
      prefersBorder?: boolean;
    };
    const view = ctx.views.add(html, ui.csp);
    return { url: `/views/${view.id}`, csp: view.csp, ui, mimeType: content.mimeType };
  },
};
