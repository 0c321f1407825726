import type { CompleteParams } from "mcpkit";
import type { CallOptions, Progress } from "mcpkit/client";
import { OpError } from "../op-error.js";
import { empty, flag, type JsonBody, object, optionalObject, optionalText, stringRecord, text } from "./check.js";
import type { OpContext, OperationTable } from "./context.js";

/**
 * A call the page may cancel: its AbortSignal is kept under the page's call id, and its
 * progress notifications reach the page under that id.
 */
function cancellable(callId: string | undefined, ctx: OpContext): { options: CallOptions; done: () => void } {
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

const uri = (body: JsonBody) => ({ uri: text(body, "uri") });

/** The server's features: its lists, tools, resources, prompts and completion; each one call of mcpkit's Client. */
export const featureOps: OperationTable<
  | "tools/list"
  | "resources/list"
  | "resources/templates/list"
  | "prompts/list"
  | "tools/call"
  | "cancel"
  | "resources/read"
  | "resources/subscribe"
  | "resources/unsubscribe"
  | "completion/complete"
  | "prompts/get"
> = {
  "tools/list": { parse: empty, run: (_r, ctx) => ctx.session.client.tools() },
  "resources/list": { parse: empty, run: (_r, ctx) => ctx.session.client.resources() },
  "resources/templates/list": { parse: empty, run: (_r, ctx) => ctx.session.client.resourceTemplates() },
  "prompts/list": { parse: empty, run: (_r, ctx) => ctx.session.client.prompts() },

  "tools/call": {
    parse: (body) => {
      const args = optionalObject(body, "arguments");
      const callId = optionalText(body, "callId");
      const asTask = flag(body, "asTask");
      return {
        name: text(body, "name"),
        ...(args && { arguments: args }),
        ...(callId && { callId }),
        ...(asTask !== undefined && { asTask }),
      };
    },
    run: async (request, ctx) => {
      const { options, done } = cancellable(request.callId, ctx);
      const client = ctx.session.client;
      const args = request.arguments ?? {};
      try {
        if (request.asTask === true) {
          const started = await client.callToolAsTask(request.name, args, options);
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
        return { result: await client.callTool(request.name, args, options) };
      } catch (error) {
        // server/tools §Output Schema: the result is still shown, with what is wrong with it.
        const { ToolOutputError } = await import("mcpkit/client");
        if (error instanceof ToolOutputError) return { result: error.result, outputError: error.message };
        throw error;
      } finally {
        done();
      }
    },
  },

  cancel: {
    parse: (body) => ({ callId: text(body, "callId") }),
    run: async ({ callId }, ctx) => {
      const controller = ctx.calls.get(callId);
      controller?.abort(new Error("Cancelled in the inspector"));
      return { cancelled: controller !== undefined };
    },
  },

  "resources/read": { parse: uri, run: ({ uri }, ctx) => ctx.session.client.readResource(uri) },

  "resources/subscribe": {
    parse: uri,
    run: async ({ uri }, ctx) => {
      await ctx.session.client.subscribe(uri);
      return {};
    },
  },

  "resources/unsubscribe": {
    parse: uri,
    run: async ({ uri }, ctx) => {
      await ctx.session.client.unsubscribe(uri);
      return {};
    },
  },

  "completion/complete": {
    parse: (body) => {
      const ref = object(body, "ref");
      const argument = object(body, "argument");
      const context = optionalObject(body, "context");
      const params: CompleteParams = {
        ref:
          ref.type === "ref/prompt"
            ? { type: "ref/prompt", name: text(ref, "name") }
            : ref.type === "ref/resource"
              ? { type: "ref/resource", uri: text(ref, "uri") }
              : fail('"ref.type" must be ref/prompt or ref/resource'),
        argument: { name: text(argument, "name"), value: optionalText(argument, "value") ?? "" },
      };
      const args = context && stringRecord(context, "arguments");
      if (context) params.context = args ? { arguments: args } : {};
      return params;
    },
    run: (params, ctx) => ctx.session.client.complete(params),
  },

  "prompts/get": {
    parse: (body) => {
      const args = stringRecord(body, "arguments");
      const callId = optionalText(body, "callId");
      return { name: text(body, "name"), ...(args && { arguments: args }), ...(callId && { callId }) };
    },
    run: async (request, ctx) => {
      const { options, done } = cancellable(request.callId, ctx);
      try {
        return await ctx.session.client.getPrompt(request.name, request.arguments ?? {}, options);
      } finally {
        done();
      }
    },
  },
};

function fail(message: string): never {
  throw new OpError(message);
}
