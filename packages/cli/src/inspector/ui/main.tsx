// First: the page's key leaves the address bar before anything reads the fragment as a view.
import "./page-key.js";
import "./style.css";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { call, connectEvents } from "./api.js";
import { failedLists, useListsRead } from "./lists.js";
import { AsksDialog } from "./parts/asks-dialog.js";
import { DiagnosisSteps } from "./parts/diagnosis.js";
import { ExternalLink } from "./parts/external-link.js";
import { getState, navigate, setTheme, useStore } from "./store.js";
import { AppsView } from "./views/apps.js";
import { AuthView } from "./views/auth.js";
import { LogsView } from "./views/logs.js";
import { NetworkView } from "./views/network.js";
import { PromptsView } from "./views/prompts.js";
import { ProtocolView } from "./views/protocol.js";
import { ResourcesView } from "./views/resources.js";
import { RootsView } from "./views/roots.js";
import { ServerView } from "./views/server.js";
import { SkillsView } from "./views/skills.js";
import { TasksView } from "./views/tasks.js";
import { ToolsView } from "./views/tools.js";
import { TRANSPORT_TEXT } from "./words.js";

/** The views, in the order of the navigation; Alt+1…9 and Alt+0 jump to them. */
const VIEWS = [
  { id: "server", label: "Server", View: ServerView },
  { id: "tools", label: "Tools", View: ToolsView },
  { id: "resources", label: "Resources", View: ResourcesView },
  { id: "prompts", label: "Prompts", View: PromptsView },
  { id: "apps", label: "Apps", View: AppsView },
  { id: "tasks", label: "Tasks", View: TasksView },
  { id: "skills", label: "Skills", View: SkillsView },
  { id: "roots", label: "Roots", View: RootsView },
  { id: "logs", label: "Logs", View: LogsView },
  { id: "protocol", label: "Protocol", View: ProtocolView },
  { id: "network", label: "Network", View: NetworkView },
  { id: "auth", label: "Sign-in", View: AuthView },
];

const STATUS_TEXT: Record<string, string> = {
  connecting: "Connecting…",
  "signing-in": "Sign-in needed",
  connected: "Connected",
  disconnected: "Disconnected",
  failed: "Failed",
};

function Header() {
  const c = useStore((s) => s.connection);
  const live = useStore((s) => s.live);
  const refused = useStore((s) => s.refused);
  const theme = useStore((s) => s.theme);
  const info = c.description?.serverInfo;
  return (
    <header class="top">
      <div class="brand">
        <span class="logo" aria-hidden="true">
          ◆
        </span>{" "}
        mcpkit inspector
      </div>
      <div class="server-line">
        <span class="server-name">{info ? `${info.title ?? info.name} ${info.version ?? ""}` : c.targetLabel}</span>
        {c.era && (
          <span class={`era ${c.era}`} title="The era the connection speaks">
            {c.era} · {c.revision}
          </span>
        )}
        {c.transport && (
          <span class="chip" data-testid="transport">
            {TRANSPORT_TEXT[c.transport]}
          </span>
        )}
      </div>
      <div class="status-line">
        {/* The state and, once the connection is down, why: one live region, read out together. */}
        <span class="status-group" role="status">
          <span class={`status ${c.status}`} data-testid="status">
            {STATUS_TEXT[c.status] ?? c.status}
          </span>
          {(c.status === "disconnected" || c.status === "failed") && c.error && (
            <span class="status-reason" data-testid="status-reason" title={c.error}>
              {c.error}
            </span>
          )}
        </span>
        {!live && !refused && <span class="status failed">Inspector offline</span>}
        <button
          type="button"
          class="icon"
          aria-label={`Switch to the ${theme === "dark" ? "light" : "dark"} theme`}
          onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
        >
          {theme === "dark" ? "☀" : "☾"}
        </button>
      </div>
    </header>
  );
}

function Nav() {
  const view = useStore((s) => s.view);
  const asks = useStore((s) => s.asks.length);
  const logs = useStore((s) => s.logs.length);
  const messages = useStore((s) => s.protocol.length);
  const badges: Record<string, number> = { logs, protocol: messages };
  return (
    <nav class="side" aria-label="Views">
      <ul>
        {VIEWS.map((v, i) => (
          <li key={v.id}>
            <button
              type="button"
              aria-current={view === v.id ? "page" : undefined}
              aria-keyshortcuts={`Alt+${(i + 1) % 10}`}
              data-view={v.id}
              onClick={() => navigate(v.id)}
            >
              <span>{v.label}</span>
              {badges[v.id] ? <span class="badge">{badges[v.id]}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {asks > 0 && <p class="waiting">{asks} question(s) waiting</p>}
    </nav>
  );
}

function SignIn() {
  const url = useStore((s) => s.connection.signInUrl);
  if (!url) return null;
  return (
    <div class="banner" role="alert">
      The server needs you to sign in.{" "}
      <ExternalLink class="button primary" href={url}>
        Sign in
      </ExternalLink>
      <span class="hint"> The authorization server sends you back to this inspector.</span>
    </div>
  );
}

/**
 * The connection is down (a stdio server exited, an HTTP server stopped answering, or it
 * never came): said in every view, with the reason, a way back, and what the doctor found
 * (it runs by itself when a connection fails; Diagnose runs it on request). Reconnecting
 * starts a stdio server anew.
 */
function ConnectionLost() {
  const c = useStore((s) => s.connection);
  const [error, setError] = useState<string>();
  if (c.status !== "disconnected" && c.status !== "failed") return null;
  const what =
    c.status === "failed"
      ? "Could not connect to the server"
      : c.error
        ? "Disconnected"
        : "Disconnected from the server";
  return (
    <div class="banner bad" role="alert" data-testid="connection-lost">
      <strong>{what}</strong>
      {c.error && <span class="mono">: {c.error}</span>}{" "}
      <button
        type="button"
        class="primary"
        onClick={() => {
          setError(undefined);
          call("connect").catch((e: Error) => setError(e.message));
        }}
      >
        {c.status === "failed" ? "Try again" : "Reconnect"}
      </button>
      {!c.diagnosis?.running && (
        <button
          type="button"
          onClick={() => {
            setError(undefined);
            call("doctor").catch((e: Error) => setError(e.message));
          }}
        >
          {c.diagnosis ? "Diagnose again" : "Diagnose"}
        </button>
      )}
      {error && <span class="error"> {error}</span>}
      {c.stderr && (
        <div class="stderr-tail">
          <div class="hint">What the server wrote last on stderr:</div>
          <pre class="mono stderr-lines" data-testid="stderr-tail">
            {c.stderr.join("\n")}
          </pre>
        </div>
      )}
      {c.diagnosis && <DiagnosisSteps diagnosis={c.diagnosis} />}
    </div>
  );
}

/**
 * Connected, but the server cannot give a list it offers (a module that did not load
 * under mcpkit dev, a server in a bad state): a failure, said in every view, not an empty
 * list that looks healthy.
 */
function ServerProblem() {
  const connected = useStore((s) => s.connection.status === "connected");
  const failed = useStore((s) =>
    failedLists(s)
      .map(([kind, error]) => `${kind}: ${error}`)
      .join("\n"),
  );
  if (!connected || !failed) return null;
  const lines = failed.split("\n");
  return (
    <div class="banner bad" role="alert" data-testid="server-problem">
      <strong>The server is connected but failing</strong>: it offers these lists and could not give them.
      <ul>
        {lines.map((line) => (
          <li key={line} class="mono">
            {line}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The inspector does not know this page: nothing else is shown, only how to get in. */
function Refused({ message }: { message: string }) {
  return (
    <main id="main" class="refused" data-testid="refused">
      <h1>This page cannot use the inspector</h1>
      <p>{message}</p>
      <p>
        Each link <span class="mono">mcpkit inspect</span> prints opens the inspector once. Press Enter in the terminal
        where it runs for a fresh one, and open that.
      </p>
    </main>
  );
}

function App() {
  const view = useStore((s) => s.view);
  const refused = useStore((s) => s.refused);
  useListsRead();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || !/^[0-9]$/.test(e.key)) return;
      const target = VIEWS[(Number(e.key) + 9) % 10];
      if (target) {
        e.preventDefault();
        navigate(target.id);
        document.getElementById("main")?.focus();
      }
    };
    const onHash = () => {
      const id = location.hash.slice(1);
      if (VIEWS.some((v) => v.id === id) && id !== getState().view) navigate(id);
    };
    addEventListener("keydown", onKey);
    addEventListener("hashchange", onHash);
    return () => {
      removeEventListener("keydown", onKey);
      removeEventListener("hashchange", onHash);
    };
  }, []);
  // A view starts at its top, wherever the last one was scrolled to.
  useEffect(() => document.getElementById("main")?.scrollTo(0, 0), [view]);
  const Current = (VIEWS.find((v) => v.id === view) ?? (VIEWS[0] as (typeof VIEWS)[number])).View;
  if (refused) return <Refused message={refused} />;
  return (
    <>
      <a class="skip" href="#main">
        Skip to the view
      </a>
      <Header />
      <div class="body">
        <Nav />
        <main id="main" tabIndex={-1}>
          <SignIn />
          <ConnectionLost />
          <ServerProblem />
          <Current />
        </main>
      </div>
      <AsksDialog />
    </>
  );
}

document.documentElement.dataset.theme = getState().theme;
void connectEvents();
render(<App />, document.getElementById("root") as HTMLElement);
