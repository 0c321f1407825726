import { useEffect, useState } from "preact/hooks";
import type { Ask, ConnectionState, JsonObject, LogEntry, NetworkEntry, ProtocolEntry, Task } from "./types.js";

export interface NotificationEntry {
  at: number;
  method: string;
  params: JsonObject;
}

/** Everything the page knows, fed by the backend's event stream (api.ts). */
export interface State {
  /** Whether the event stream is open. */
  live: boolean;
  /** Why the inspector refuses this page (it holds no key, or another run's), if it does. */
  refused?: string;
  connection: ConnectionState;
  protocol: ProtocolEntry[];
  network: NetworkEntry[];
  logs: LogEntry[];
  asks: Ask[];
  tasks: Record<string, Task>;
  /** Notifications the views react to (resource updates, list changes), newest last. */
  notifications: NotificationEntry[];
  /** Progress of calls in flight, by the page's call id. */
  progress: Record<string, { progress: number; total?: number; message?: string }>;
  /** Bumped when a list changed, so views listing it fetch again. */
  listVersion: { tools: number; resources: number; prompts: number };
  /** The view shown, and what it should open (a resource's URI, an app tool's result). */
  view: string;
  theme: "light" | "dark";
  focus?: JsonObject;
}

const PROTOCOL_LIMIT = 5000;
const NETWORK_LIMIT = 1000;
const LOG_LIMIT = 2000;

let state: State = {
  live: false,
  connection: { status: "connecting" },
  protocol: [],
  network: [],
  logs: [],
  asks: [],
  tasks: {},
  notifications: [],
  progress: {},
  listVersion: { tools: 0, resources: 0, prompts: 0 },
  view: location.hash.slice(1) || "server",
  theme: savedTheme(),
};

function savedTheme(): "light" | "dark" {
  const saved = localStorage.getItem("mcpkit-inspector-theme");
  if (saved === "light" || saved === "dark") return saved;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function setTheme(theme: "light" | "dark"): void {
  localStorage.setItem("mcpkit-inspector-theme", theme);
  document.documentElement.dataset.theme = theme;
  update(() => ({ theme }));
}

/** Shows a view, optionally opening something in it. */
export function navigate(view: string, focus?: JsonObject): void {
  if (location.hash.slice(1) !== view) history.replaceState(null, "", `#${view}`);
  update(() => ({ view, focus }));
}

const listeners = new Set<() => void>();
let scheduled = false;

export function getState(): State {
  return state;
}

/** Changes the state; views re-render once per frame however many events came. */
export function update(change: (s: State) => Partial<State>): void {
  state = { ...state, ...change(state) };
  if (scheduled) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    for (const listener of listeners) listener();
  }, 16);
}

/** A part of the state; the component re-renders when it changes. */
export function useStore<T>(select: (s: State) => T): T {
  const [, setTick] = useState(0);
  const value = select(state);
  useEffect(() => {
    let last = value;
    const listener = () => {
      const next = select(state);
      if (next !== last) {
        last = next;
        setTick((n) => n + 1);
      }
    };
    listeners.add(listener);
    return () => listeners.delete(listener);
  });
  return value;
}

const capped = <T>(list: T[], limit: number) => (list.length > limit ? list.slice(list.length - limit) : list);

/** Applies one event of the backend (see ../session.ts for what each carries). */
export function applyEvent(event: JsonObject): void {
  switch (event.type) {
    case "snapshot": {
      const { protocol, network, logs, asks, tasks, type: _t, ...connection } = event;
      const byId: Record<string, Task> = {};
      for (const task of tasks as Task[]) byId[task.taskId] = task;
      update(() => ({ connection: connection as ConnectionState, protocol, network, logs, asks, tasks: byId }));
      return;
    }
    case "state": {
      const { type: _t, ...connection } = event;
      update(() => ({ connection: connection as ConnectionState }));
      return;
    }
    case "pings":
      update((s) => ({ connection: { ...s.connection, pings: event.pings } }));
      return;
    case "message":
      update((s) => ({ protocol: capped([...s.protocol, event.entry], PROTOCOL_LIMIT) }));
      return;
    case "http":
      update((s) => {
        const entry = event.entry as NetworkEntry;
        let at = s.network.length - 1;
        while (at >= 0 && s.network[at]?.seq !== entry.seq) at--;
        if (at === -1) return { network: capped([...s.network, entry], NETWORK_LIMIT) };
        const network = s.network.slice();
        network[at] = entry;
        return { network };
      });
      return;
    case "log":
      update((s) => ({ logs: capped([...s.logs, event.entry], LOG_LIMIT) }));
      return;
    case "asks":
      update(() => ({ asks: event.asks }));
      return;
    case "task":
      update((s) => ({ tasks: { ...s.tasks, [event.task.taskId]: { ...s.tasks[event.task.taskId], ...event.task } } }));
      return;
    case "progress":
      update((s) => ({ progress: { ...s.progress, [event.callId]: event.progress } }));
      return;
    case "lists-stale":
      // The backend's listen stream was re-opened: changes may have been missed, every list is read anew.
      update((s) => ({
        listVersion: {
          tools: s.listVersion.tools + 1,
          resources: s.listVersion.resources + 1,
          prompts: s.listVersion.prompts + 1,
        },
      }));
      return;
    case "notification": {
      const entry = { at: Date.now(), method: event.method as string, params: event.params ?? {} };
      const kind = /^notifications\/(tools|resources|prompts)\/list_changed$/.exec(entry.method)?.[1] as
        | "tools"
        | "resources"
        | "prompts"
        | undefined;
      update((s) => ({
        notifications: capped([...s.notifications, entry], 200),
        ...(kind && { listVersion: { ...s.listVersion, [kind]: s.listVersion[kind] + 1 } }),
      }));
      return;
    }
  }
}

const kept = new Map<string, unknown>();

/** useState whose value outlives the component: a view keeps its selection when the person comes back. */
export function useKept<T>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(kept.has(key) ? (kept.get(key) as T) : initial);
  return [
    value,
    (next: T) => {
      kept.set(key, next);
      setValue(next);
    },
  ];
}
