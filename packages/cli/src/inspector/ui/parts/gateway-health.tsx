import { useEffect, useRef, useState } from "preact/hooks";
import type { GatewayHealthView } from "../../contract/gateway.js";
import { call } from "../api.js";

/** How often a gateway's upstreams are read again while the Server view shows them. */
const EVERY_MS = 5000;

/** Each state's pill: ready is good, restarting and stopped are not. */
const PILL: Record<string, string> = { ready: "good", restarting: "bad", stopped: "bad" };

const time = (iso: string | undefined) => (iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : "");

/**
 * A gateway's upstreams (`mcpkit gateway`): each one's state, restarts and last error, from
 * its /healthz, read again every few seconds while shown. Nothing is shown for a server that
 * is no gateway, and it is not asked again.
 */
export function GatewayHealth() {
  const [health, setHealth] = useState<GatewayHealthView>();
  const [error, setError] = useState<string>();
  /** Whether the server answered as a gateway: a server that is none is not asked again. */
  const gateway = useRef(false);
  const read = async () => {
    try {
      const answer = await call("gateway/health");
      gateway.current = "health" in answer;
      setHealth("health" in answer ? answer.health : undefined);
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    void read();
    const timer = setInterval(() => {
      if (gateway.current) void read();
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  if (!health) return error ? <p class="error">{error}</p> : null;
  return (
    <div class="card" data-testid="gateway-health">
      <div class="pane-head">
        <h3>
          Gateway upstreams{" "}
          <span class={`pill ${health.status === "ok" ? "good" : "bad"}`} data-testid="gateway-status">
            {health.status}
          </span>
        </h3>
        <button type="button" class="small" onClick={() => void read()}>
          Refresh
        </button>
      </div>
      <p class="hint">
        From <span class="mono">{health.url}</span> at {new Date(health.at).toLocaleTimeString([], { hour12: false })},
        read again every {EVERY_MS / 1000} s. Why an upstream failed is told to callers on the gateway's machine only.
      </p>
      {error && <p class="error">{error}</p>}
      <table class="grid">
        <thead>
          <tr>
            <th>Upstream</th>
            <th>Transport</th>
            <th>State</th>
            <th>Since</th>
            <th>Restarts</th>
            <th>Last error</th>
          </tr>
        </thead>
        <tbody>
          {health.upstreams.map((u) => (
            <tr key={u.name} data-upstream={u.name}>
              <td class="mono">{u.name}</td>
              <td>
                {u.transport}
                {u.perSession && <span class="badge">per session</span>}
              </td>
              <td>
                <span class={`pill ${PILL[u.state] ?? ""}`} data-testid="upstream-state">
                  {u.state}
                </span>
              </td>
              <td>{time(u.since)}</td>
              <td data-testid="upstream-restarts">{u.restarts}</td>
              <td data-testid="upstream-error">
                {u.lastError}
                {u.lastErrorAt && <span class="hint"> ({time(u.lastErrorAt)})</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
