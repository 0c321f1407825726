import type { CallToolResult, Tool } from "mcpkit";
import { useEffect, useRef, useState } from "preact/hooks";
import type { AppView } from "../../contract/operations.js";
import { call } from "../api.js";
import { useList } from "../lists.js";
import { ToolResult } from "../parts/content.js";
import { openExternal } from "../parts/external-link.js";
import { JsonView } from "../parts/json.js";
import { argumentsOf, initialValue, SchemaForm } from "../parts/schema-form.js";
import { useKept, useStore } from "../store.js";
import { appViewOf } from "./tools.js";

/** The MCP Apps revision this host speaks (ext-apps specification 2026-01-26). */
const APPS_REVISION = "2026-01-26";

interface Rendered {
  tool: Tool;
  args: unknown;
  result?: CallToolResult;
  view?: AppView;
  error?: string;
}

/** A JSON-RPC message between the view and the host: whatever the view posts, read field by field. */
interface AppRpc {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: Record<string, unknown> | CallToolResult;
  result?: unknown;
  error?: unknown;
}

interface AppMessage {
  at: number;
  dir: "to-app" | "from-app";
  message: AppRpc;
}

/**
 * MCP Apps: a tool's ui:// view rendered in a sandboxed frame under the view's own CSP,
 * with the inspector as its host: it answers ui/initialize, sends the tool's input and
 * result, and carries the view's tools/call and resources/read to the server. Every
 * message between the two is listed under the frame.
 */
export function AppsView() {
  const { items, error } = useList("tools");
  const focus = useStore((s) => s.focus);
  // Tools the view alone may call (visibility ["app"]) are not started from here.
  const apps = (items ?? []).filter((t) => appViewOf(t) && appMayBeStarted(t));
  const [selected, setSelected] = useKept<string | undefined>("apps.selected", undefined);
  const [rendered, setRendered] = useState<Rendered>();
  const tool = apps.find((t) => t.name === selected) ?? apps[0];

  async function render(target: Tool, args: unknown, result?: CallToolResult) {
    const uri = appViewOf(target) as string;
    const next: Rendered = { tool: target, args, ...(result && { result }) };
    try {
      if (!result) {
        const called = await call("tools/call", { name: target.name, arguments: argumentsOf(args) });
        next.result = called.result;
      }
      next.view = await call("app/open", { uri });
    } catch (e) {
      next.error = (e as Error).message;
    }
    setRendered(next);
  }

  useEffect(() => {
    const t = focus?.tool && items?.find((x) => x.name === focus.tool);
    if (t && focus?.result) {
      setSelected(t.name);
      render(t, focus.args, focus.result);
    }
  }, [focus, items]);

  return (
    <section class="view split" aria-labelledby="apps-title">
      <div class="list-pane">
        <div class="pane-head">
          <h2 id="apps-title">Apps {items && <span class="count">{apps.length}</span>}</h2>
        </div>
        {error && <p class="error">{error}</p>}
        <ul class="items" aria-label="App tools">
          {apps.map((t) => (
            <li key={t.name}>
              <button
                type="button"
                class="item"
                data-tool={t.name}
                aria-current={t.name === tool?.name}
                onClick={() => setSelected(t.name)}
              >
                <span class="item-name">{t.title ?? t.name}</span>
                <span class="item-sub mono">{appViewOf(t)}</span>
              </button>
            </li>
          ))}
        </ul>
        {items && apps.length === 0 && <p class="hint">No tool of this server names a ui:// view.</p>}
      </div>
      <div class="detail-pane">
        {tool && <AppLauncher tool={tool} key={tool.name} onRender={(args) => render(tool, args)} />}
        {rendered?.error && <p class="error">{rendered.error}</p>}
        {rendered?.view && rendered.result && (
          <AppHost rendered={rendered} key={rendered.view.url} tools={items ?? []} />
        )}
      </div>
    </section>
  );
}

function AppLauncher({ tool, onRender }: { tool: Tool; onRender: (args: unknown) => Promise<void> }) {
  const [args, setArgs] = useState<unknown>(initialValue(tool.inputSchema) ?? {});
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="card"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        await onRender(args);
        setBusy(false);
      }}
    >
      <h3>{tool.title ?? tool.name}</h3>
      {tool.description && <p>{tool.description}</p>}
      <SchemaForm schema={tool.inputSchema} value={args} onChange={setArgs} idPrefix={`app-${tool.name}`} />
      <div class="row actions">
        <button type="submit" class="primary" disabled={busy}>
          Call and render
        </button>
      </div>
    </form>
  );
}

const visibilityOf = (tool: Tool | undefined) =>
  (tool?._meta?.ui as { visibility?: string[] } | undefined)?.visibility ?? ["model", "app"];

/** ext-apps §Visibility: the view may call only tools whose visibility includes "app". */
const appMayCall = (tool: Tool | undefined) => tool !== undefined && visibilityOf(tool).includes("app");

/** The tools an agent would call (visibility includes "model"), whose results the view renders. */
const appMayBeStarted = (tool: Tool) => visibilityOf(tool).includes("model");

function AppHost({ rendered, tools }: { rendered: Rendered; tools: Tool[] }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [log, setLog] = useState<AppMessage[]>([]);
  const [height, setHeight] = useState(320);
  const theme = useStore((s) => s.theme);
  const { view, tool } = rendered as Required<Pick<Rendered, "view" | "tool">> & Rendered;
  const permissions = Object.keys((view.ui.permissions ?? {}) as object)
    .map((p) => (p === "clipboardWrite" ? "clipboard-write" : p))
    .filter((p) => ["camera", "microphone", "geolocation", "clipboard-write"].includes(p));

  useEffect(() => {
    const note = (dir: AppMessage["dir"], message: AppRpc) =>
      setLog((old) => [...old.slice(-199), { at: Date.now(), dir, message }]);
    const post = (message: AppRpc) => {
      note("to-app", message);
      frame.current?.contentWindow?.postMessage(message, "*");
    };
    const reply = (id: unknown, result: object) => post({ jsonrpc: "2.0", id, result });
    const fail = (id: unknown, code: number, message: string) => post({ jsonrpc: "2.0", id, error: { code, message } });

    async function onMessage(event: MessageEvent) {
      // Only the frame this host made may talk to it; its origin is opaque ("null") by design.
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      if (typeof event.data !== "object" || event.data === null) return;
      const m = event.data as AppRpc;
      if (m.jsonrpc !== "2.0") return;
      note("from-app", m);
      const params: Record<string, unknown> = argumentsOf(m.params);
      const isRequest = m.id !== undefined && typeof m.method === "string";
      switch (m.method) {
        case "ui/initialize":
          return reply(m.id, {
            protocolVersion: APPS_REVISION,
            hostInfo: { name: "mcpkit-inspector", version: "1" },
            hostCapabilities: { serverTools: {}, serverResources: {}, logging: {}, openLinks: {} },
            hostContext: {
              toolInfo: { tool },
              theme,
              displayMode: "inline",
              availableDisplayModes: ["inline"],
              containerDimensions: { maxHeight: 1200 },
              platform: "web",
              locale: navigator.language,
            },
          });
        case "ui/notifications/initialized":
          post({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: rendered.args ?? {} } });
          if (rendered.result)
            post({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: rendered.result });
          return;
        case "ui/notifications/size-changed":
          if (typeof params.height === "number") setHeight(Math.max(60, Math.min(1200, Math.ceil(params.height))));
          return;
        case "tools/call": {
          const name = params.name;
          if (!appMayCall(tools.find((t) => t.name === name)))
            return fail(m.id, -32602, `The app may not call ${String(name)}`);
          try {
            const called = await call("tools/call", { name: String(name), arguments: argumentsOf(params.arguments) });
            return reply(m.id, called.result);
          } catch (e) {
            return fail(m.id, -32603, (e as Error).message);
          }
        }
        case "resources/read":
          try {
            return reply(m.id, await call("resources/read", { uri: String(params.uri) }));
          } catch (e) {
            return fail(m.id, -32603, (e as Error).message);
          }
        case "ui/open-link": {
          // ext-apps: the host decides; only http(s) links away from the inspector open.
          if (!openExternal(params.url))
            return fail(m.id, -32602, "Only http and https links away from the inspector open");
          return reply(m.id, {});
        }
        case "ui/request-display-mode":
          return reply(m.id, { mode: "inline" });
        case "ui/message":
        case "ui/update-model-context":
        case "ping":
          // No conversation here: the message is shown in the list below, and acknowledged.
          return reply(m.id, {});
        default:
          if (isRequest) fail(m.id, -32601, `The inspector does not handle ${m.method}`);
      }
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [view.url]);

  return (
    <div class="app-host">
      <div class="row">
        <span class="pill good">{appViewOf(tool)}</span>
        <details class="grow">
          <summary>Content-Security-Policy</summary>
          <pre class="mono csp">{view.csp}</pre>
        </details>
      </div>
      <iframe
        ref={frame}
        title={`App view of ${tool.name}`}
        class={`app-frame ${view.ui.prefersBorder === false ? "borderless" : ""}`}
        src={view.url}
        sandbox="allow-scripts allow-forms"
        allow={permissions.join("; ")}
        style={`height:${height}px`}
      />
      <details>
        <summary>Tool result</summary>
        {rendered.result && <ToolResult result={rendered.result} />}
      </details>
      <h4>
        App ↔ host messages <span class="count">{log.length}</span>
      </h4>
      <ol class="app-log" aria-label="App messages">
        {log.map((entry, i) => (
          <li key={i} class={entry.dir}>
            <details>
              <summary>
                <span class="dir">{entry.dir === "to-app" ? "host → app" : "app → host"}</span>{" "}
                <span class="mono">
                  {entry.message.method ?? (entry.message.error ? "error" : "result")}
                  {entry.message.id !== undefined && ` #${entry.message.id}`}
                </span>
              </summary>
              <JsonView value={entry.message} />
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
