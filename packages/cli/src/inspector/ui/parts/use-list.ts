import { useEffect, useState } from "preact/hooks";
import { call } from "../api.js";
import { type State, useStore } from "../store.js";

/**
 * A list of the server's (tools, resources, templates, prompts), fetched once connected
 * and again when the server says it changed or the connection is made anew.
 */
export function useList<T>(kind: "tools" | "resources" | "templates" | "prompts") {
  const capability = kind === "templates" ? "resources" : kind;
  const connected = useStore((s) => s.connection.status === "connected");
  // A server lists only what its capabilities declare: nothing is asked of one that offers none.
  const offered = useStore((s) => {
    const caps = s.connection.description?.capabilities;
    return caps === undefined || caps[capability] !== undefined;
  });
  const session = useStore((s) => `${s.connection.sessionId}|${s.connection.revision}|${s.connection.targetLabel}`);
  const version = useStore((s: State) => s.listVersion[kind === "templates" ? "resources" : kind]);
  const [items, setItems] = useState<T[] | undefined>(undefined);
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
    call<T[]>("list", { kind })
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
