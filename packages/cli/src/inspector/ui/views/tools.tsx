import type { CallToolResult, Tool, ToolAnnotations } from "mcpkit";
import { useEffect, useState } from "preact/hooks";
import { type ApiError, call, newCallId } from "../api.js";
import { useList } from "../lists.js";
import { ProtocolError, ToolResult } from "../parts/content.js";
import { JsonView } from "../parts/json.js";
import { ProgressBar } from "../parts/progress.js";
import { argumentsOf, initialValue, SchemaForm } from "../parts/schema-form.js";
import { navigate, useKept, useStore } from "../store.js";

/** What a tool's panel holds between visits: the arguments typed, the calls made. */
interface ToolPanel {
  args: unknown;
  /** The arguments as typed in JSON mode (undefined: the form). */
  raw?: string | undefined;
  asTask: boolean;
  running?: { callId: string; started: number };
  outcomes: Outcome[];
}

interface Outcome {
  at: number;
  ms: number;
  args: unknown;
  result?: CallToolResult;
  outputError?: string;
  /** The call failed: a JSON-RPC error from the server (with its code), or the inspector's own. */
  error?: { message: string; code?: number; data?: unknown };
  taskId?: string;
}

const panels = new Map<string, ToolPanel>();

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The MCP Apps view a tool names (`_meta.ui.resourceUri`), if any. */
export const appViewOf = (tool: Tool): string | undefined => {
  const ui = tool._meta?.ui as { resourceUri?: unknown } | undefined;
  const uri = ui?.resourceUri ?? tool._meta?.["ui/resourceUri"];
  return typeof uri === "string" ? uri : undefined;
};

const HINTS: [keyof ToolAnnotations, string, boolean][] = [
  ["readOnlyHint", "read-only", true],
  ["destructiveHint", "destructive", true],
  ["idempotentHint", "idempotent", true],
  ["openWorldHint", "open world", true],
];

function AnnotationChips({ tool }: { tool: Tool }) {
  const a = tool.annotations ?? {};
  return (
    <span class="chips">
      {HINTS.filter(([key]) => a[key] === true).map(([key, label]) => (
        <span class={`chip ${key === "destructiveHint" ? "warn" : ""}`} key={key} title={key}>
          {label}
        </span>
      ))}
      {tool.execution?.taskSupport && tool.execution.taskSupport !== "forbidden" && (
        <span class="chip" title={`execution.taskSupport: ${tool.execution.taskSupport}`}>
          task
        </span>
      )}
      {appViewOf(tool) && (
        <span class="chip app" title={appViewOf(tool)}>
          app
        </span>
      )}
    </span>
  );
}

export function ToolsView() {
  const { items, error, hint, reload } = useList("tools");
  const focus = useStore((s) => s.focus);
  const [selected, setSelected] = useKept<string | undefined>("tools.selected", undefined);
  const [filter, setFilter] = useState("");
  useEffect(() => {
    if (focus?.tool) setSelected(focus.tool);
  }, [focus]);
  const shown = (items ?? []).filter((t) =>
    `${t.name} ${t.title ?? ""} ${t.description ?? ""}`.toLowerCase().includes(filter.toLowerCase()),
  );
  const tool = items?.find((t) => t.name === selected) ?? shown[0];
  return (
    <section class="view split" aria-labelledby="tools-title">
      <div class="list-pane">
        <div class="pane-head">
          <h2 id="tools-title">Tools {items && <span class="count">{items.length}</span>}</h2>
          <button type="button" class="small" onClick={reload}>
            Refresh
          </button>
        </div>
        <input
          type="search"
          placeholder="Filter tools"
          aria-label="Filter tools"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
        {error && <p class="error">{error}</p>}
        <ul class="items" aria-label="Tools">
          {shown.map((t) => (
            <li key={t.name}>
              <button
                type="button"
                class="item"
                aria-current={t.name === tool?.name}
                data-tool={t.name}
                onClick={() => setSelected(t.name)}
              >
                <span class="item-name">{t.title ?? t.name}</span>
                {t.title ? (
                  <span class="item-sub mono">{t.name}</span>
                ) : (
                  t.description && <span class="item-sub">{t.description}</span>
                )}
                <AnnotationChips tool={t} />
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="detail-pane">
        {tool ? <ToolDetail tool={tool} key={tool.name} /> : <p class="hint">{hint ?? "No tools."}</p>}
      </div>
    </section>
  );
}

function ToolDetail({ tool }: { tool: Tool }) {
  const [, rerender] = useState(0);
  let panel = panels.get(tool.name);
  if (!panel) {
    panel = { args: initialValue(tool.inputSchema) ?? {}, asTask: false, outcomes: [] };
    panels.set(tool.name, panel);
  }
  const p = panel;
  const refresh = () => rerender((n) => n + 1);
  const progress = useStore((s) => (p.running ? s.progress[p.running.callId] : undefined));
  const taskSupport = tool.execution?.taskSupport;
  // 2025-11-25 marks the tools that may run as tasks; with 2026-07-28's Tasks extension the
  // client offers and the server decides, for any tool.
  const tasksExtension = useStore(
    (s) => s.connection.era === "modern" && !!s.connection.description?.capabilities?.extensions?.[TASKS_EXTENSION],
  );
  const mayTask = taskSupport === "optional" || taskSupport === "required" || tasksExtension;

  async function run() {
    if (p.running) return;
    const callId = newCallId();
    const started = performance.now();
    p.running = { callId, started: Date.now() };
    refresh();
    const outcome: Outcome = { at: Date.now(), ms: 0, args: p.args };
    try {
      const value = await call("tools/call", {
        callId,
        name: tool.name,
        arguments: argumentsOf(p.args),
        asTask: p.asTask || taskSupport === "required",
      });
      outcome.result = value.result;
      if (value.outputError) outcome.outputError = value.outputError;
      if (value.taskId) outcome.taskId = value.taskId;
    } catch (e) {
      const { message, code, data } = e as ApiError;
      outcome.error = { message, ...(code !== undefined && { code }), ...(data !== undefined && { data }) };
    }
    outcome.ms = Math.round(performance.now() - started);
    p.running = undefined;
    p.outcomes = [outcome, ...p.outcomes].slice(0, 5);
    refresh();
  }

  const app = appViewOf(tool);
  return (
    <div class="tool-detail">
      <div class="detail-head">
        <h3>{tool.title ?? tool.name}</h3>
        <AnnotationChips tool={tool} />
      </div>
      {tool.title && <div class="mono hint">{tool.name}</div>}
      {tool.description && <p>{tool.description}</p>}
      <form
        class="call-form"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            // As the button does: the form's checks first, then the call.
            e.currentTarget.requestSubmit();
          }
        }}
      >
        <SchemaForm
          schema={tool.inputSchema}
          value={p.args}
          idPrefix={`arg-${tool.name}`}
          onChange={(value) => {
            p.args = value;
            refresh();
          }}
          raw={p.raw}
          onRawChange={(raw) => {
            p.raw = raw;
            refresh();
          }}
        />
        <div class="row actions">
          {p.running ? (
            <button
              type="button"
              class="danger"
              onClick={() => p.running && call("cancel", { callId: p.running.callId })}
            >
              Cancel
            </button>
          ) : (
            <button type="submit" class="primary" title="Ctrl+Enter">
              Call tool
            </button>
          )}
          {mayTask && (
            <label class="check">
              <input
                type="checkbox"
                checked={p.asTask || taskSupport === "required"}
                disabled={taskSupport === "required"}
                onChange={(e) => {
                  p.asTask = e.currentTarget.checked;
                  refresh();
                }}
              />
              <span>Run as a task</span>
            </label>
          )}
        </div>
        {p.running && <ProgressBar progress={progress} />}
      </form>
      {p.outcomes.map((o, i) => (
        <div class="outcome" key={o.at} data-latest={i === 0 ? "true" : undefined}>
          <div class="outcome-head hint">
            {new Date(o.at).toLocaleTimeString()} · {o.ms} ms{o.taskId && ` · task ${o.taskId}`}
            {app && o.result && (
              <button
                type="button"
                class="small"
                onClick={() => navigate("apps", { tool: tool.name, args: o.args, result: o.result })}
              >
                Render the app
              </button>
            )}
          </div>
          {o.error ? (
            <ProtocolError error={o.error} />
          ) : (
            o.result && (
              <ToolResult
                result={o.result}
                hasOutputSchema={tool.outputSchema !== undefined}
                {...(o.outputError && { outputError: o.outputError })}
              />
            )
          )}
        </div>
      ))}
      <details>
        <summary>Schemas and metadata</summary>
        <h4>inputSchema</h4>
        <JsonView value={tool.inputSchema ?? {}} label="input schema" />
        {tool.outputSchema && (
          <>
            <h4>outputSchema</h4>
            <JsonView value={tool.outputSchema} label="output schema" />
          </>
        )}
        {tool.annotations && (
          <>
            <h4>annotations</h4>
            <JsonView value={tool.annotations} />
          </>
        )}
        {tool._meta && (
          <>
            <h4>_meta</h4>
            <JsonView value={tool._meta} />
          </>
        )}
      </details>
    </div>
  );
}
