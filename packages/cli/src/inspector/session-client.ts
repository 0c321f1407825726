import type { LogLevel, Root } from "mcpkit";
import type { Client, ClientRequestContext, ServerDescription } from "mcpkit/client";
import { VERSION } from "../version.js";
import type { Ask, Asks } from "./asks.js";
import type { LogEntry } from "./contract/entries.js";
import type { PageEvent, PageNotification, PageTask, ProtocolChoice } from "./contract/events.js";
import { revisionFor } from "./target.js";

/** MCP Apps (ext-apps): the extension the inspector declares, so servers show it their app tools. */
const APPS_EXTENSION = "io.modelcontextprotocol/ui";
const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The notifications the page is told of as they come. */
const FORWARDED: PageNotification[] = [
  "notifications/resources/updated",
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
  "notifications/elicitation/complete",
];

/** What the client reports to the session, each for the connection it was made for. */
export interface ClientHooks {
  protocol: ProtocolChoice;
  timeoutMs: number;
  roots: Root[];
  asks: Asks;
  /** Whether the connection is still the session's (a replaced one's reports are dropped). */
  mine(): boolean;
  closed(reason: Error | undefined): void;
  /** The server forgot the session and the client began a new one. */
  renewed(description: ServerDescription): void;
  log(entry: LogEntry): void;
  warn(message: string): void;
  emit(event: PageEvent): void;
  noteTask(task: PageTask): void;
}

/**
 * The inspector's mcpkit Client (its public API only): it declares elicitation (form and
 * URL), sampling and roots, and the MCP Apps extension, and hands what the server asks of
 * the person to the page. The client modules are loaded here, not when the inspector
 * starts: its URL is printed (and the page served) before any of them is read.
 */
export async function makeClient(hooks: ClientHooks): Promise<Client> {
  const { Client } = await import("mcpkit/client");
  const { mine } = hooks;
  const ask =
    (method: Ask["method"]) =>
    (params: object, ctx: ClientRequestContext): Promise<never> =>
      hooks.asks.ask(
        method,
        params,
        ctx.inputKey === undefined
          ? { kind: "request", key: String(ctx.requestId) }
          : { kind: "input", key: ctx.inputKey },
        ctx.signal,
      ) as Promise<never>;
  const protocolVersion = revisionFor(hooks.protocol);
  const client = new Client({
    name: "mcpkit-inspector",
    title: "mcpkit inspector",
    version: VERSION,
    ...(protocolVersion && { protocolVersion }),
    timeoutMs: hooks.timeoutMs,
    // Declared from the start, so roots can be edited in the page at any time.
    roots: hooks.roots,
    capabilities: {
      elicitation: { form: {}, url: {} },
      extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
    },
    elicitation: ask("elicitation/create"),
    sampling: ask("sampling/createMessage"),
    onClose: (reason) => {
      if (mine()) hooks.closed(reason);
    },
    onError: (error) => {
      if (mine()) hooks.warn(String(error));
    },
    // The server forgot the session (it restarted, or ended it) and the Client began a
    // new one: its id, and the server's info and capabilities, which may have changed.
    onSessionRenewed: (description) => {
      if (mine()) hooks.renewed(description);
    },
  });
  client.on("notifications/message", (params) => {
    if (mine())
      hooks.log({
        at: Date.now(),
        level: params.level as LogLevel,
        logger: params.logger as string,
        data: params.data,
      });
  });
  for (const method of FORWARDED)
    client.on(method, (params) => {
      if (mine()) hooks.emit({ type: "notification", method, params });
    });
  client.on("notifications/tasks/status", (params) => {
    if (mine() && typeof params.taskId === "string") hooks.noteTask(params as unknown as PageTask);
  });
  return client;
}
