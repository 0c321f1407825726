import type { CallToolResult, Prompt, Resource, ResourceTemplate, Tool } from "mcpkit";
import type { Progress } from "mcpkit/client";
import type { Ask, AuthStep, LogEntry, NetworkEntry, ProtocolEntry } from "../contract/entries.js";
import type { ConnectionState, PageEvent, PageNotification, PageTask } from "../contract/events.js";

/**
 * Everything the page knows, and how each of the backend's events (../contract/events.ts)
 * changes it: a pure function of the state and the event, tested in process
 * (state.test.ts). store.ts holds the one state of the page and tells the views.
 */

export interface NotificationEntry {
  at: number;
  method: PageNotification;
  params: Record<string, unknown>;
}

/** What a view is asked to open when the page navigates to it. */
export interface Focus {
  /** A tool to select (Tools, Apps), and in Apps the call whose result to render. */
  tool?: string;
  args?: unknown;
  result?: CallToolResult;
  /** A resource to read (Resources). */
  uri?: string;
}

export type Theme = "light" | "dark";

/** The server's lists, by kind, as the page reads them (lists.ts). */
export interface ListItems {
  tools: Tool;
  resources: Resource;
  templates: ResourceTemplate;
  prompts: Prompt;
}
export type ListKind = keyof ListItems;

/** A list read: its items, or why it could not be read. */
export type Listed<T> = { items: T[]; error?: undefined } | { items?: undefined; error: string };

export interface State {
  /** Whether the event stream is open. */
  live: boolean;
  /** Why the inspector refuses this page (it holds no key, or another run's), if it does. */
  refused?: string;
  connection: ConnectionState;
  protocol: ProtocolEntry[];
  network: NetworkEntry[];
  logs: LogEntry[];
  /** The sign-ins' steps (the authorization view). */
  auth: AuthStep[];
  asks: Ask[];
  tasks: Record<string, PageTask>;
  /** Notifications the views react to (resource updates, list changes), newest last. */
  notifications: NotificationEntry[];
  /** Progress of calls in flight, by the page's call id. */
  progress: Record<string, Progress>;
  /** Bumped when a list changed, so views listing it fetch again. */
  listVersion: { tools: number; resources: number; prompts: number };
  /** The lists last read on this connection (none before it is connected). */
  lists: { [K in ListKind]?: Listed<ListItems[K]> };
  /** The view shown, and what it should open (a resource's URI, an app tool's result). */
  view: string;
  theme: Theme;
  focus?: Focus | undefined;
}

export const LIMITS = { protocol: 5000, network: 1000, logs: 2000, notifications: 200, auth: 200 };

/** The state before the backend said anything: connecting, to a server not yet named. */
export function initialState(view: string, theme: Theme): State {
  return {
    live: false,
    connection: {
      status: "connecting",
      target: { kind: "http", url: "", headers: [] },
      targetLabel: "",
      allowSpawn: [],
      protocolChoice: "auto",
      roots: [],
      timeoutMs: 0,
      pingIntervalMs: 0,
    },
    protocol: [],
    network: [],
    logs: [],
    auth: [],
    asks: [],
    tasks: {},
    notifications: [],
    progress: {},
    listVersion: { tools: 0, resources: 0, prompts: 0 },
    lists: {},
    view,
    theme,
  };
}

const capped = <T>(list: T[], limit: number) => (list.length > limit ? list.slice(list.length - limit) : list);

/** A list with `entry` in place of the one of its seq, or at the end when it is new. */
function replaceBySeq<T extends { seq: number }>(list: T[], entry: T, limit: number): T[] {
  let at = list.length - 1;
  while (at >= 0 && list[at]?.seq !== entry.seq) at--;
  if (at === -1) return capped([...list, entry], limit);
  const copy = list.slice();
  copy[at] = entry;
  return copy;
}

const LIST_CHANGED: Partial<Record<PageNotification, keyof State["listVersion"]>> = {
  "notifications/tools/list_changed": "tools",
  "notifications/resources/list_changed": "resources",
  "notifications/prompts/list_changed": "prompts",
};

/** The state after one event of the backend. */
export function reduce(s: State, event: PageEvent, now = Date.now()): State {
  switch (event.type) {
    case "snapshot": {
      const { protocol, network, logs, asks, tasks, auth, type: _t, ...connection } = event;
      const byId: Record<string, PageTask> = {};
      for (const task of tasks) byId[task.taskId] = task;
      return { ...s, connection, protocol, network, logs, asks, auth, tasks: byId };
    }
    case "state": {
      const { type: _t, ...connection } = event;
      return { ...s, connection };
    }
    case "pings":
      return { ...s, connection: { ...s.connection, pings: event.pings } };
    case "message":
      return { ...s, protocol: capped([...s.protocol, event.entry], LIMITS.protocol) };
    case "http":
      // The same exchange comes again as it changes (headers, then the end of its body): replaced in place.
      return { ...s, network: replaceBySeq(s.network, event.entry, LIMITS.network) };
    case "auth":
      return { ...s, auth: replaceBySeq(s.auth, event.step, LIMITS.auth) };
    case "log":
      return { ...s, logs: capped([...s.logs, event.entry], LIMITS.logs) };
    case "asks":
      return { ...s, asks: event.asks };
    case "task":
      return { ...s, tasks: { ...s.tasks, [event.task.taskId]: { ...s.tasks[event.task.taskId], ...event.task } } };
    case "progress":
      return { ...s, progress: { ...s.progress, [event.callId]: event.progress } };
    case "lists-stale":
      // Changes may have been missed (a listen stream opened anew, a new session): every list is read anew.
      return {
        ...s,
        listVersion: {
          tools: s.listVersion.tools + 1,
          resources: s.listVersion.resources + 1,
          prompts: s.listVersion.prompts + 1,
        },
      };
    case "notification": {
      const entry: NotificationEntry = { at: now, method: event.method, params: event.params };
      const kind = LIST_CHANGED[event.method];
      return {
        ...s,
        notifications: capped([...s.notifications, entry], LIMITS.notifications),
        ...(kind && { listVersion: { ...s.listVersion, [kind]: s.listVersion[kind] + 1 } }),
      };
    }
  }
}
