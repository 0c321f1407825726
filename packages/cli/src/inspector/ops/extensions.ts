import type { ReadResourceResult } from "mcpkit";
import { mcpkitCommand } from "../../self.js";
import { clientConfig } from "../client-config.js";
import type { AppUi, ConfigFormat } from "../contract/operations.js";
import { OpError } from "../op-error.js";
import { empty, flag, type JsonBody, text } from "./check.js";
import type { OperationTable } from "./context.js";

const taskId = (body: JsonBody) => ({ taskId: text(body, "taskId") });

/** The extensions: tasks, skills, and MCP Apps views. */
export const extensionOps: OperationTable<
  | "tasks/list"
  | "tasks/get"
  | "tasks/cancel"
  | "tasks/result"
  | "skills/list"
  | "skills/load"
  | "app/open"
  | "config/export"
  | "auth/clear"
  | "auth/restart"
> = {
  "tasks/list": {
    parse: empty,
    run: async (_request, ctx) => {
      const session = ctx.session;
      // 2025-11-25 lists a session's tasks; 2026-07-28 has no tasks/list, so the page shows those it saw.
      if (session.client.protocolEra === "legacy" && session.client.serverCapabilities?.tasks) {
        const listed = await session.client.request<{ tasks?: unknown[] }>("tasks/list", {});
        for (const task of listed.tasks ?? []) session.noteTask(task as never);
      }
      return [...session.tasks.values()];
    },
  },

  "tasks/get": {
    parse: taskId,
    run: async ({ taskId }, ctx) => {
      const task = await ctx.session.client.task(taskId).get();
      ctx.session.noteTask(task);
      return task;
    },
  },

  "tasks/cancel": {
    parse: taskId,
    run: async ({ taskId }, ctx) => {
      const handle = ctx.session.client.task(taskId);
      await handle.cancel();
      const task = await handle.get();
      ctx.session.noteTask(task);
      return task;
    },
  },

  "tasks/result": { parse: taskId, run: ({ taskId }, ctx) => ctx.session.client.task(taskId).result() },

  "skills/list": { parse: empty, run: (_request, ctx) => ctx.session.client.skills() },

  "skills/load": {
    parse: (body) => {
      const allowUnverified = flag(body, "allowUnverified");
      return { uri: text(body, "uri"), ...(allowUnverified !== undefined && { allowUnverified }) };
    },
    run: async ({ uri, allowUnverified }, ctx) => {
      const skill = await ctx.session.client.loadSkill(uri, { allowUnverified: allowUnverified === true });
      return { entry: skill.entry, text: skill.text };
    },
  },

  /**
   * MCP Apps: reads a ui:// view and registers it to be served under its own CSP. The
   * page frames /views/<id> and plays the host (ui/initialize, tool input and result).
   */
  "app/open": {
    parse: (body) => {
      const uri = text(body, "uri");
      if (!uri.startsWith("ui://")) throw new OpError(`An app view is a ui:// resource, not ${uri}`);
      return { uri };
    },
    run: async ({ uri }, ctx) => {
      const read: ReadResourceResult = await ctx.session.client.readResource(uri);
      const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
      if (!content) throw new OpError(`${uri} has no content`);
      const html = "text" in content ? content.text : Buffer.from(content.blob, "base64").toString("utf8");
      const ui = ((content._meta as { ui?: AppUi } | undefined)?.ui ?? {}) as AppUi;
      const view = ctx.views.add(html, ui.csp);
      return { url: `/views/${view.id}`, csp: view.csp, ui, ...(content.mimeType && { mimeType: content.mimeType }) };
    },
  },

  "auth/clear": {
    parse: empty,
    run: async (_request, ctx) => {
      ctx.session.authTrace.clear();
      return {};
    },
  },

  "auth/restart": {
    parse: empty,
    run: async (_request, ctx) => {
      const { session } = ctx;
      if (session.target.kind !== "http") throw new OpError("A stdio server has no sign-in");
      session.credentials.forgetSignIn(session.target.url);
      session.authTrace.clear();
      await session.connect();
      return session.state();
    },
  },

  "config/export": {
    parse: (body) => {
      const format = text(body, "format");
      if (!FORMATS.includes(format as ConfigFormat))
        throw new OpError(`"${format}" is not a configuration the inspector writes (${FORMATS.join(", ")})`);
      return { format: format as ConfigFormat };
    },
    run: async ({ format }, ctx) => {
      const { session } = ctx;
      const target = session.target;
      const name = session.description?.serverInfo.name;
      // The command line's own command: its variables by name (their values stay here).
      const env = target.kind === "stdio" && target === session.given ? Object.keys(target.env) : [];
      return clientConfig(
        format,
        name,
        target.kind === "http"
          ? {
              kind: "http",
              url: target.url,
              sse: session.state().transport === "http+sse",
              headers: session.credentials.headerNames(target.url),
            }
          : { kind: "stdio", command: target.command, args: target.args, env },
        mcpkitCommand(),
      );
    },
  },
};

const FORMATS: readonly ConfigFormat[] = ["mcp.json", "claude-desktop", "vscode"];
