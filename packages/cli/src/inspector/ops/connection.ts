import { LOG_LEVELS, type LogLevel } from "mcpkit";
import type { Reply } from "../contract/entries.js";
import type { ConnectRequest } from "../contract/operations.js";
import { OpError } from "../op-error.js";
import { checkHeaders, httpUrl, stdioTarget } from "../page-target.js";
import type { ConnectChange } from "../session.js";
import { isProtocolChoice } from "../target.js";
import { empty, isObject, object, optionalText, strings, text } from "./check.js";
import type { OpContext, OperationTable } from "./context.js";

/** The connection itself: (re)connecting, closing, pinging, the doctor, the roots offered, the log level, the page's answers. */
export const connectionOps: OperationTable<
  "connect" | "disconnect" | "ping" | "doctor" | "roots" | "logging/setLevel" | "answer"
> = {
  connect: {
    parse: (body) => {
      // Said by name, not dropped: a page that tries must learn that it cannot.
      if (body.env !== undefined)
        throw new OpError("The page does not set a command's environment: give variables to mcpkit inspect with -e");
      const protocol = optionalText(body, "protocol");
      if (protocol !== undefined && !isProtocolChoice(protocol))
        throw new OpError(`"${protocol}" is not auto, legacy, modern or a revision mcpkit speaks`);
      const request: ConnectRequest = {};
      if (protocol !== undefined) request.protocol = protocol;
      const url = optionalText(body, "url");
      const command = optionalText(body, "command");
      if (url !== undefined && command !== undefined) throw new OpError("Give a URL or a command, not both");
      if (url !== undefined) {
        request.url = httpUrl(url);
        request.headers = checkHeaders(object(body, "headers"));
        request.removeHeaders = strings(body, "removeHeaders") ?? [];
      }
      if (command !== undefined) {
        request.command = command;
        request.args = strings(body, "args") ?? [];
      }
      const timeoutMs = duration(body, "timeoutMs");
      if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
      const pingIntervalMs = duration(body, "pingIntervalMs");
      if (pingIntervalMs !== undefined) request.pingIntervalMs = pingIntervalMs;
      return request;
    },
    run: async (request, ctx) => {
      await ctx.session.connect(changeFor(request, ctx));
      return ctx.session.state();
    },
  },

  disconnect: {
    parse: empty,
    run: async (_request, ctx) => {
      await ctx.session.disconnect();
      return ctx.session.state();
    },
  },

  ping: {
    parse: empty,
    run: async (_request, ctx) => {
      const started = performance.now();
      await ctx.session.client.ping();
      return { ms: Math.round(performance.now() - started) };
    },
  },

  doctor: {
    // No body: the doctor reaches the connection's own target, never one the page names.
    parse: empty,
    run: async (_request, ctx) => {
      const diagnosis = await ctx.session.diagnose();
      if (!diagnosis) throw new Error("The connection changed before the doctor finished: its diagnosis was dropped");
      return diagnosis;
    },
  },
  roots: {
    parse: (body) => {
      if (!Array.isArray(body.roots)) throw new OpError('"roots" must be a list');
      return {
        roots: body.roots.map((root: unknown) => {
          const { uri, name } = isObject(root) ? root : {};
          if (typeof uri !== "string" || !/^[a-z][a-z0-9+.-]*:/i.test(uri))
            throw new OpError(`A root needs a URI (file:///…), not ${JSON.stringify(uri)}`);
          return typeof name === "string" && name ? { uri, name } : { uri };
        }),
      };
    },
    run: async ({ roots }, ctx) => {
      ctx.session.setRoots(roots);
      return { roots };
    },
  },

  "logging/setLevel": {
    parse: (body) => {
      const level = text(body, "level");
      if (!isLevel(level)) throw new OpError(`"${level}" is not a log level (${LOG_LEVELS.join(", ")})`);
      return { level };
    },
    run: async ({ level }, ctx) => {
      await ctx.session.client.setLogLevel(level);
      return {};
    },
  },

  answer: {
    parse: (body) => {
      const id = body.id;
      if (typeof id !== "number" || !Number.isInteger(id)) throw new OpError('"id" must be the question\'s number');
      const reply = object(body, "reply");
      if (typeof reply.refuse === "string") return { id, reply: { refuse: reply.refuse } };
      const result = reply.result;
      // An elicitation's answer says its action; a sampling's, the model that wrote it.
      if (isObject(result) && (typeof result.action === "string" || typeof result.model === "string"))
        return { id, reply: { result } as unknown as Reply };
      throw new OpError("\"reply\" needs a result (an elicitation's action, a sampling's model) or refuse");
    },
    run: async ({ id, reply }, ctx) => ({ delivered: ctx.session.asks.answer(id, reply) }),
  },
};

/** A duration in ms, 0 (none) up to a day. */
function duration(body: Record<string, unknown>, key: string): number | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 86_400_000)
    throw new OpError(`"${key}" must be a number of milliseconds from 0 (none) to a day`);
  return value;
}

const isLevel = (value: string): value is LogLevel => (LOG_LEVELS as readonly string[]).includes(value);

/**
 * A new target from the page: a URL always, with the headers the page gives for it (the
 * command line's go to their own origin only, credentials.ts); a command only as
 * page-target.ts allows.
 */
function changeFor(request: ConnectRequest, ctx: OpContext): ConnectChange {
  const change: ConnectChange = request.protocol ? { protocol: request.protocol } : {};
  if (request.timeoutMs !== undefined || request.pingIntervalMs !== undefined)
    change.timeouts = {
      ...(request.timeoutMs !== undefined && { timeoutMs: request.timeoutMs }),
      ...(request.pingIntervalMs !== undefined && { pingIntervalMs: request.pingIntervalMs }),
    };
  if (request.url !== undefined) {
    change.target = { kind: "http", url: request.url, headers: {} };
    change.headers = { set: request.headers ?? {}, remove: request.removeHeaders ?? [] };
  } else if (request.command !== undefined)
    change.target = stdioTarget(
      { command: request.command, args: request.args ?? [] },
      { given: ctx.session.given, allowSpawn: ctx.session.allowSpawn },
    );
  return change;
}
