import { useEffect, useState } from "preact/hooks";
import type { PageEvent } from "../contract/events.js";
import { type Focus, initialState, reduce, type State, type Theme } from "./state.js";

export type { Focus, State };

/** The page's one state (state.ts), fed by the backend's event stream (api.ts). */
let state: State = initialState(location.hash.slice(1) || "server", savedTheme());

function savedTheme(): Theme {
  const saved = localStorage.getItem("mcpkit-inspector-theme");
  if (saved === "light" || saved === "dark") return saved;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function setTheme(theme: Theme): void {
  localStorage.setItem("mcpkit-inspector-theme", theme);
  document.documentElement.dataset.theme = theme;
  update(() => ({ theme }));
}

/** Shows a view, optionally opening something in it. */
export function navigate(view: string, focus?: Focus): void {
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

/** Applies one event of the backend. */
export function applyEvent(event: PageEvent): void {
  update((s) => reduce(s, event));
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
