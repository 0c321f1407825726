import { useEffect, useRef } from "preact/hooks";
import { call } from "./api.js";
import type { ListItems, ListKind } from "./state.js";
import { getState, type State, update, useStore } from "./store.js";

/** The operation that reads each list. */
const READ: { [K in ListKind]: () => Promise<ListItems[K][]> } = {
  tools: () => call("tools/list"),
  resources: () => call("resources/list"),
  templates: () => call("resources/templates/list"),
  prompts: () => call("prompts/list"),
};

const KINDS: ListKind[] = ["tools", "resources", "templates", "prompts"];

/** The capability a list belongs to (templates are resources'). */
const capabilityOf = (kind: ListKind) => (kind === "templates" ? "resources" : kind);

/** Whether the server offers a list: a server lists only what its capabilities declare. */
function offered(s: State, kind: ListKind): boolean {
  const caps = s.connection.description?.capabilities;
  return caps === undefined || caps[capabilityOf(kind)] !== undefined;
}

/** Which connection a list was read on: a list read on an earlier one is dropped. */
const connectionKey = (s: State) => `${s.connection.sessionId}|${s.connection.revision}|${s.connection.targetLabel}`;

/** Reads one list into the store: its items, or the error the server answered (never thrown). */
export function readList(kind: ListKind): void {
  const on = connectionKey(getState());
  const keep = (listed: State["lists"][ListKind]) => {
    if (connectionKey(getState()) === on) update((s) => ({ lists: { ...s.lists, [kind]: listed } }));
  };
  READ[kind]().then(
    (items) => keep({ items }),
    (error: Error) => keep({ error: error.message }),
  );
}

/**
 * Keeps the server's lists read, whatever view is shown: once connected, again when the
 * server says one changed, and anew for each connection. A list the server offers but
 * cannot give is a failure the whole page shows (ServerProblem), not an empty list.
 */
export function useListsRead(): void {
  const connected = useStore((s) => s.connection.status === "connected");
  // The connection the lists were read on: kept while it is down (a view keeps showing
  // what it had, a call under way its outcome), replaced once another one is up.
  const session = useStore((s) => (s.connection.status === "connected" ? connectionKey(s) : undefined));
  const versions = useStore((s) => s.listVersion);
  const readOn = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!connected || session === undefined) return;
    if (readOn.current !== session) {
      if (readOn.current !== undefined) update(() => ({ lists: {} }));
      readOn.current = session;
    }
    const s = getState();
    for (const kind of KINDS) if (offered(s, kind)) readList(kind);
  }, [connected, session, versions]);
}

/** A list of the server's, as a view shows it, and how to read it again. */
export function useList<K extends ListKind>(kind: K) {
  const connected = useStore((s) => s.connection.status === "connected");
  const isOffered = useStore((s) => offered(s, kind));
  const listed = useStore((s) => s.lists[kind]);
  return {
    items: listed?.items as ListItems[K][] | undefined,
    error: listed?.error,
    /** Said instead of an empty list when the server does not offer this kind at all. */
    hint:
      connected && !isOffered
        ? `The server does not offer ${capabilityOf(kind)} (none in its capabilities).`
        : undefined,
    reload: () => readList(kind),
  };
}

/** The lists the server offers but could not give, with why. */
export const failedLists = (s: State): [ListKind, string][] =>
  KINDS.flatMap((kind) => {
    const error = s.lists[kind]?.error;
    return error === undefined ? [] : [[kind, error] as [ListKind, string]];
  });
