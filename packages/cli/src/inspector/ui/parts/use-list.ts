import type { Prompt, Resource, ResourceTemplate, Tool } from "mcpkit";
import { useEffect, useState } from "preact/hooks";
import { call } from "../api.js";
import { type State, useStore } from "../store.js";

interface Items {
  tools: Tool;
  resources: Resource;
  templates: ResourceTemplate;
  prompts: Prompt;
}

type Kind = keyof Items;

/** The lists the page reads, by kind: the operation that reads each. */
const LISTS: { [K in Kind]: () => Promise<Items[K][]> } = {
  tools: () => call("tools/list"),
  resources: () => call("resources/list"),
  templates: () => call("resources/templates/list"),
  prompts: () => call("prompts/list"),
};

/**
 * A list of the server's (tools, resources, templates, prompts), fetched once connected
 * and again when the server says it changed or the connection is made anew.
 */
export function useList<K extends Kind>(kind: K) {
  const capability = kind === "templates" ? "resources" : (kind as Exclude<Kind, "templates">);
  const connected = useStore((s) => s.connection.status === "connected");
  // A server lists only what its capabilities declare: nothing is asked of one that offers none.
  const offered = useStore((s) => {
    const caps = s.connection.description?.capabilities;
    return caps === undefined || caps[capability] !== undefined;
  });
  const session = useStore((s) => `${s.connection.sessionId}|${s.connection.revision}|${s.connection.targetLabel}`);
  const version = useStore((s: State) => s.listVersion[capability]);
  const [items, setItems] = useState<Items[K][] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [again, setAgain] = useState(0);
  useEffect(() => {
    if (!connected) return;
    if (!offered) {
      setItems([]);
      setError(undefined);
      return;
    }
    let live = true;
    LISTS[kind]()
      .then((list) => {
        if (!live) return;
        setItems(list);
        setError(undefined);
      })
      .catch((e: Error) => {
        if (!live) return;
        setItems(undefined);
        setError(e.message);
      });
    return () => {
      live = false;
    };
  }, [connected, offered, session, version, again]);
  return {
    items,
    error,
    /** Said instead of an empty list when the server does not offer this kind at all. */
    hint: connected && !offered ? `The server does not offer ${capability} (none in its capabilities).` : undefined,
    reload: () => setAgain((n) => n + 1),
  };
}
