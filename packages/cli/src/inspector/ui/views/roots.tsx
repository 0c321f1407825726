import { useEffect, useState } from "preact/hooks";
import { call } from "../api.js";
import { useStore } from "../store.js";

/** The roots the inspector offers the server (client/roots); a legacy server is told when they change. */
export function RootsView() {
  const offered = useStore((s) => s.connection.roots ?? []);
  const [rows, setRows] = useState(offered);
  const [status, setStatus] = useState<string>();
  useEffect(() => setRows(offered), [JSON.stringify(offered)]);
  const set = (i: number, key: "uri" | "name", value: string) =>
    setRows(rows.map((row, j) => (j === i ? { ...row, [key]: value } : row)));
  return (
    <section class="view" aria-labelledby="roots-title">
      <h2 id="roots-title">Roots</h2>
      <p class="hint">
        The directories (or other URIs) the server may work in. A legacy server hears notifications/roots/list_changed;
        a 2026-07-28 server asks for them when it needs them.
      </p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            await call("roots", { roots: rows.filter((r) => r.uri.trim()) });
            setStatus("Offered to the server.");
          } catch (err) {
            setStatus((err as Error).message);
          }
        }}
      >
        {rows.map((row, i) => (
          <div class="row root-row" key={i}>
            <input
              class="mono grow"
              aria-label={`Root ${i + 1} URI`}
              placeholder="file:///home/me/project"
              value={row.uri}
              onInput={(e) => set(i, "uri", e.currentTarget.value)}
            />
            <input
              aria-label={`Root ${i + 1} name`}
              placeholder="name (optional)"
              value={row.name ?? ""}
              onInput={(e) => set(i, "name", e.currentTarget.value)}
            />
            <button type="button" class="small" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
        ))}
        <div class="row actions">
          <button type="button" onClick={() => setRows([...rows, { uri: "" }])}>
            Add a root
          </button>
          <button type="submit" class="primary">
            Offer these roots
          </button>
          {status && <span class="hint">{status}</span>}
        </div>
      </form>
    </section>
  );
}
