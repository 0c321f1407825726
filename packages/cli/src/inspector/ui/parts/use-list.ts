import { useEffect, useState } from "preact/hooks";
import { call } from "../api.js";
import { type State, useStore } from "../store.js";

/**
 * A list of the server's (tools, resources, templates, prompts), fetched once connected
 * and again when the server says it changed or the connection is made anew.
 */
export function useList<T>(kind: "tools" | "resources" | "templates" | "prompts") {
  const connected = useStore((s) => s.connection.status === "connected");
  const session = useStore((s) => `${s.connection.sessionId}|${s.connection.revision}|${s.connection.targetLabel}`);
  const version = useStore((s: State) => s.listVersion[kind === "templates" ? "resources" : kind]);
  const [items, setItems] = useState<T[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [again, setAgain] = useState(0);
  useEffect(() => {
    if (!connected) return;
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
  }, [connected, session, version, again]);
  return { items, error, reload: () => setAgain((n) => n + 1) };
}
