import { REVISIONS } from "mcpkit";
import { useState } from "preact/hooks";
import type { ConnectionState, ProtocolChoice } from "../../contract/events.js";
import type { ConnectRequest } from "../../contract/operations.js";
import { call } from "../api.js";

/** A header typed in the panel: sent to the URL typed with it, never shown back once sent. */
interface NewHeader {
  name: string;
  value: string;
}

const seconds = (ms: number) => String(ms / 1000);
const millis = (text: string) => Math.round(Number(text) * 1000);

/**
 * Where the inspector connects, and how: the URL with headers and a bearer token, or (only
 * under --allow-spawn's list) a command and its arguments; the protocol revision; the
 * timeouts. The headers the connection holds are listed by name: their values (given with
 * -H, typed here, or a sign-in's token) stay with the inspector and are never shown. A
 * command's environment is never set here.
 */
export function ConnectionPanel({ connection }: { connection: ConnectionState }) {
  const target = connection.target;
  const programs = [...new Set([...(target.kind === "stdio" ? [target.command] : []), ...connection.allowSpawn])];
  const mayStart = connection.allowSpawn.length > 0;
  const [kind, setKind] = useState<"http" | "stdio">(target.kind);
  const [url, setUrl] = useState(target.kind === "http" ? target.url : "");
  const [removed, setRemoved] = useState<string[]>([]);
  const [added, setAdded] = useState<NewHeader[]>([]);
  const [token, setToken] = useState("");
  const [command, setCommand] = useState(target.kind === "stdio" ? target.command : (programs[0] ?? ""));
  const [args, setArgs] = useState(target.kind === "stdio" ? target.args.join("\n") : "");
  const [protocol, setProtocol] = useState<ProtocolChoice>(connection.protocolChoice);
  const [timeout, setTimeoutText] = useState(seconds(connection.timeoutMs));
  const [pings, setPings] = useState(seconds(connection.pingIntervalMs));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const held = target.kind === "http" ? target.headers : [];
  const sameOrigin = target.kind === "http" && url !== "" && originOf(url) === originOf(target.url);

  function request(): ConnectRequest {
    const common: ConnectRequest = { protocol, timeoutMs: millis(timeout), pingIntervalMs: millis(pings) };
    if (kind === "stdio")
      return target.kind === "stdio" && !mayStart
        ? common
        : { ...common, command, args: args.split("\n").filter((a) => a !== "") };
    const headers = Object.fromEntries(added.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]));
    if (token) headers.Authorization = `Bearer ${token}`;
    return { ...common, url, headers, removeHeaders: removed };
  }

  return (
    <form
      class="card connect"
      aria-label="Connection"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          await call("connect", request());
        } catch (err) {
          setError((err as Error).message);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3>Connection</h3>
      {(target.kind === "stdio" || mayStart) && (
        <fieldset class="mode" aria-label="Server kind">
          <button type="button" aria-pressed={kind === "http"} onClick={() => setKind("http")}>
            URL
          </button>
          <button type="button" aria-pressed={kind === "stdio"} onClick={() => setKind("stdio")}>
            Command
          </button>
        </fieldset>
      )}
      {kind === "http" ? (
        <>
          <label>
            URL
            <input class="mono" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required />
          </label>
          <fieldset class="headers">
            <legend class="label">Headers</legend>
            {sameOrigin &&
              held.map((name) => (
                <label class="check" key={name} data-header={name}>
                  <input
                    type="checkbox"
                    checked={!removed.includes(name)}
                    onChange={(e) =>
                      setRemoved(e.currentTarget.checked ? removed.filter((n) => n !== name) : [...removed, name])
                    }
                  />
                  <span class="mono">{name}</span> <span class="hint">value hidden</span>
                </label>
              ))}
            {!sameOrigin && held.length > 0 && (
              <p class="hint">
                The headers held for {target.kind === "http" && originOf(target.url)} stay with it: a new address gets
                only those typed here.
              </p>
            )}
            {added.map((header, i) => (
              <div class="row" key={i}>
                <input
                  aria-label="Header name"
                  class="mono"
                  placeholder="Name"
                  value={header.name}
                  onInput={(e) => setAdded(added.map((h, j) => (j === i ? { ...h, name: e.currentTarget.value } : h)))}
                />
                <input
                  aria-label="Header value"
                  class="mono grow"
                  placeholder="value"
                  autocomplete="off"
                  value={header.value}
                  onInput={(e) => setAdded(added.map((h, j) => (j === i ? { ...h, value: e.currentTarget.value } : h)))}
                />
              </div>
            ))}
            <button type="button" class="small" onClick={() => setAdded([...added, { name: "", value: "" }])}>
              Add a header
            </button>
          </fieldset>
          <label>
            Bearer token
            <input
              type="password"
              autocomplete="off"
              value={token}
              placeholder={
                sameOrigin && held.some((n) => n.toLowerCase() === "authorization")
                  ? "set (hidden): type to replace"
                  : ""
              }
              onInput={(e) => setToken(e.currentTarget.value)}
            />
          </label>
        </>
      ) : mayStart ? (
        <>
          <label>
            Program
            <select value={command} onChange={(e) => setCommand(e.currentTarget.value)}>
              {programs.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <label>
            Arguments, one per line
            <textarea rows={3} class="mono" value={args} onInput={(e) => setArgs(e.currentTarget.value)} />
          </label>
          <p class="hint">
            Programs this page may start: {connection.allowSpawn.join(", ")} (mcpkit inspect --allow-spawn). A command
            started here gets no variables: those of the command line go to its own server only.
          </p>
        </>
      ) : (
        <div>
          <div class="label">Command</div>
          <div class="mono target">{connection.targetLabel}</div>
          {target.kind === "stdio" && target.cwd && <div class="hint mono">in {target.cwd}</div>}
          <div class="hint">
            Started from the command line; mcpkit inspect --allow-spawn PROGRAM lets the page start others.
          </div>
        </div>
      )}
      <div class="row">
        <label>
          Protocol
          <select
            value={protocol}
            onChange={(e) => setProtocol(e.currentTarget.value as ProtocolChoice)}
            aria-label="Protocol era"
          >
            <option value="auto">auto (newest the server speaks)</option>
            <option value="modern">modern (2026-07-28)</option>
            <option value="legacy">legacy (initialize handshake)</option>
            {REVISIONS.map((revision) => (
              <option key={revision} value={revision}>
                {revision}
              </option>
            ))}
          </select>
        </label>
        <label>
          Request timeout, s
          <input
            type="number"
            min="0"
            step="any"
            value={timeout}
            onInput={(e) => setTimeoutText(e.currentTarget.value)}
          />
        </label>
        <label>
          Ping every, s
          <input type="number" min="0" step="any" value={pings} onInput={(e) => setPings(e.currentTarget.value)} />
        </label>
      </div>
      <div class="row actions">
        <button type="submit" class="primary" disabled={busy}>
          {connection.status === "connected" ? "Reconnect" : "Connect"}
        </button>
        {connection.status === "connected" && (
          <button type="button" onClick={() => call("disconnect")}>
            Disconnect
          </button>
        )}
      </div>
      {error && <p class="error">{error}</p>}
    </form>
  );
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
