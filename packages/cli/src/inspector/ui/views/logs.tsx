import type { LogLevel } from "mcpkit";
import { useState } from "preact/hooks";
import { call } from "../api.js";
import { update, useStore } from "../store.js";

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** The server's log messages (notifications/message), a stdio server's stderr, and the level to ask for. */
export function LogsView() {
  const logs = useStore((s) => s.logs);
  const canSet = useStore((s) => !!s.connection.description?.capabilities?.logging);
  const [level, setLevel] = useState<LogLevel | "">("");
  const [shown, setShown] = useState("debug");
  const [status, setStatus] = useState<string>();
  const rank = (l: string) => (l === "stderr" ? 3 : LEVELS.indexOf(l));
  const visible = logs.filter((l) => rank(l.level) >= LEVELS.indexOf(shown));
  return (
    <section class="view" aria-labelledby="logs-title">
      <div class="pane-head">
        <h2 id="logs-title">
          Logs <span class="count">{logs.length}</span>
        </h2>
        <div class="row">
          {canSet && (
            <label>
              Server level{" "}
              <select
                value={level}
                onChange={async (e) => {
                  const next = e.currentTarget.value as LogLevel;
                  setLevel(next);
                  try {
                    await call("logging/setLevel", { level: next });
                    setStatus(`asked for ${next} and up`);
                  } catch (err) {
                    setStatus((err as Error).message);
                  }
                }}
              >
                <option value="" disabled>
                  choose…
                </option>
                {LEVELS.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </select>
            </label>
          )}
          <label>
            Show{" "}
            <select value={shown} onChange={(e) => setShown(e.currentTarget.value)}>
              {LEVELS.map((l) => (
                <option key={l} value={l}>
                  {l} and up
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="small" onClick={() => update(() => ({ logs: [] }))}>
            Clear
          </button>
        </div>
      </div>
      {status && <p class="hint">{status}</p>}
      <ol class="log-pane" aria-label="Log messages">
        {visible.map((l, i) => (
          <li key={i} class={`log level-${l.level}`}>
            <time>{new Date(l.at).toLocaleTimeString()}</time>
            <span class="level">{l.level}</span>
            {l.logger && <span class="logger">{l.logger}</span>}
            <span class="data">{typeof l.data === "string" ? l.data : JSON.stringify(l.data)}</span>
          </li>
        ))}
        {visible.length === 0 && <li class="hint">Nothing logged yet.</li>}
      </ol>
    </section>
  );
}
