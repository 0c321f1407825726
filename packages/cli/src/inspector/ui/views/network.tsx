import { useState } from "preact/hooks";
import type { NetworkEntry } from "../../contract/entries.js";
import { JsonView } from "../parts/json.js";
import { update, useStore } from "../store.js";

/** Over HTTP: every exchange with the server (and its authorization server), with the Mcp-* headers. */
export function NetworkView() {
  const entries = useStore((s) => s.network);
  const connection = useStore((s) => s.connection);
  const [open, setOpen] = useState<number>();
  if (connection.transport === "stdio")
    return (
      <section class="view" aria-labelledby="network-title">
        <h2 id="network-title">Network</h2>
        <p class="hint">This server runs over stdio: there is no HTTP to show. The Protocol view has every message.</p>
      </section>
    );
  return (
    <section class="view" aria-labelledby="network-title">
      <div class="pane-head">
        <h2 id="network-title">
          Network <span class="count">{entries.length}</span>
        </h2>
        <div class="row">
          <span class="hint">
            Session: <span class="mono">{connection.sessionId ?? "none (2026-07-28 keeps none)"}</span>
          </span>
          <button type="button" class="small" onClick={() => update(() => ({ network: [] }))}>
            Clear
          </button>
        </div>
      </div>
      <table class="grid network" aria-label="HTTP requests">
        <thead>
          <tr>
            <th>Time</th>
            <th>Method</th>
            <th>Path</th>
            <th>JSON-RPC</th>
            <th>Status</th>
            <th class="num">ms</th>
            <th>Body</th>
            <th>Mcp-* headers</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const url = new URL(e.url);
            const mcp = { ...pick(e.requestHeaders), ...pick(e.responseHeaders ?? {}) };
            return (
              <>
                <tr
                  key={e.seq}
                  class={`exchange ${e.status && e.status >= 400 ? "bad" : ""} ${open === e.seq ? "open" : ""}`}
                  tabIndex={0}
                  data-method={e.method}
                  aria-expanded={open === e.seq}
                  onClick={() => setOpen(open === e.seq ? undefined : e.seq)}
                  onKeyDown={(k) => {
                    if (k.key === "Enter" || k.key === " ") {
                      k.preventDefault();
                      setOpen(open === e.seq ? undefined : e.seq);
                    }
                  }}
                >
                  <td class="mono">{new Date(e.at).toLocaleTimeString([], { hour12: false })}</td>
                  <td class="mono">{e.method}</td>
                  <td class="mono" title={e.url}>
                    {url.host === location.host ? "" : url.host}
                    {url.pathname}
                  </td>
                  <td class="mono">{e.rpc?.join(", ")}</td>
                  <td>{e.error ? <span class="pill bad">{e.error}</span> : (e.status ?? "…")}</td>
                  <td class="num">{e.durationMs ?? ""}</td>
                  <td>{bodyOf(e)}</td>
                  <td class="mono headers">
                    {Object.entries(mcp).map(([k, v]) => (
                      <span key={k}>
                        {k}: {v}
                      </span>
                    ))}
                  </td>
                </tr>
                {open === e.seq && (
                  <tr class="detail" key={`${e.seq}-d`}>
                    <td colSpan={8}>
                      <div class="cards">
                        <div>
                          <h4>Request headers</h4>
                          <JsonView value={e.requestHeaders} />
                        </div>
                        <div>
                          <h4>Response headers</h4>
                          <JsonView value={e.responseHeaders ?? {}} />
                        </div>
                      </div>
                    </td>
                  </tr>
                )}
              </>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** What came back: an SSE stream (open or closed) or a body, and its size. */
function bodyOf(e: NetworkEntry): string {
  const kind = e.cancelled
    ? `${e.stream ? "SSE, " : ""}closed by the inspector`
    : e.stream
      ? e.ended
        ? "SSE, closed"
        : "SSE, open"
      : e.ended
        ? ""
        : "…";
  const size = e.bytes ? `${e.bytes} B` : "";
  return [kind, size].filter(Boolean).join(" · ");
}

function pick(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.startsWith("mcp-")));
}
