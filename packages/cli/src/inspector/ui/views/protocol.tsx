import { useState } from "preact/hooks";
import type { ProtocolEntry } from "../../contract/entries.js";
import { copyText, JsonView } from "../parts/json.js";
import { SaveSession } from "../parts/save-file.js";
import { update, useStore } from "../store.js";

const time = (at: number) => {
  const d = new Date(at);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, "0")}`;
};

type Fields = Record<string, unknown>;
/** A part of a recorded message (it may be anything the server sent): an object, or nothing. */
const fields = (value: unknown): Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const said = (value: unknown) => (value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));

/** What a row says about its message in one phrase. */
function summary(e: ProtocolEntry): string {
  const m = fields(e.message);
  if (e.kind === "error") {
    const error = fields(m.error);
    return `${said(error.code)} ${said(error.message)}`;
  }
  if (e.kind === "response") {
    const r = fields(m.result);
    if (r.resultType === "input_required") return `input_required: ${Object.keys(fields(r.inputRequests)).join(", ")}`;
    if (Array.isArray(r.tools)) return `${r.tools.length} tools`;
    if (Array.isArray(r.content)) return `${r.content.length} content block(s)${r.isError ? ", isError" : ""}`;
    return Object.keys(r).slice(0, 4).join(", ");
  }
  const p = fields(m.params);
  if (e.method === "tools/call" || e.method === "prompts/get")
    return `${said(p.name)}${p.inputResponses ? " (with inputResponses)" : ""}`;
  if (e.method === "resources/read" || e.method?.startsWith("resources/")) return said(p.uri);
  if (e.method === "notifications/progress") return `${said(p.progress)}${p.total ? `/${said(p.total)}` : ""}`;
  if (e.method === "notifications/message") return `${said(p.level)}: ${said(p.data)}`;
  return "";
}

/**
 * Every JSON-RPC message both ways: time, direction, method, latency, size. A click on a
 * row shows the message (copy as JSON); a click on its exchange number shows only that
 * exchange (a request, its answer, progress, and every round of a multi round-trip request).
 * The session saves as a test file or a recording (parts/save-file.tsx).
 */
export function ProtocolView() {
  const entries = useStore((s) => s.protocol);
  const [filter, setFilter] = useState("");
  const [group, setGroup] = useState<number>();
  const [open, setOpen] = useState<number>();
  const shown = entries.filter(
    (e) =>
      (group === undefined || e.group === group) &&
      (!filter || `${e.method ?? ""} ${e.kind} ${e.id ?? ""}`.toLowerCase().includes(filter.toLowerCase())),
  );
  const rounds = new Map<number, number>();
  for (const e of entries)
    if (e.group !== undefined && e.round) rounds.set(e.group, Math.max(rounds.get(e.group) ?? 0, e.round));
  return (
    <section class="view" aria-labelledby="protocol-title">
      <div class="pane-head">
        <h2 id="protocol-title">
          Protocol{" "}
          <span class="count" data-testid="message-count">
            {shown.length}
          </span>
        </h2>
        <div class="row">
          <input
            type="search"
            placeholder="Filter by method, kind or id"
            aria-label="Filter messages"
            value={filter}
            onInput={(e) => setFilter(e.currentTarget.value)}
          />
          {group !== undefined && (
            <button type="button" class="small" onClick={() => setGroup(undefined)}>
              Exchange #{group} ✕
            </button>
          )}
          <button
            type="button"
            class="small"
            onClick={() =>
              copyText(
                JSON.stringify(
                  shown.map((e) => e.message),
                  null,
                  2,
                ),
              )
            }
          >
            Copy shown as JSON
          </button>
          <button type="button" class="small" onClick={() => update(() => ({ protocol: [] }))}>
            Clear
          </button>
          <SaveSession />
        </div>
      </div>
      <table class="grid protocol" aria-label="Messages">
        <thead>
          <tr>
            <th>Time</th>
            <th aria-label="Direction" />
            <th>Exchange</th>
            <th>Kind</th>
            <th>Method</th>
            <th>Id</th>
            <th>Summary</th>
            <th class="num">ms</th>
            <th class="num">Bytes</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e) => (
            <>
              <tr
                key={e.seq}
                class={`msg ${e.dir} ${e.kind} ${open === e.seq ? "open" : ""}`}
                data-seq={e.seq}
                data-method={e.method}
                data-kind={e.kind}
                tabIndex={0}
                aria-expanded={open === e.seq}
                onClick={() => setOpen(open === e.seq ? undefined : e.seq)}
                onKeyDown={(k) => {
                  if (k.key === "Enter" || k.key === " ") {
                    k.preventDefault();
                    setOpen(open === e.seq ? undefined : e.seq);
                  }
                }}
              >
                <td class="mono">{time(e.at)}</td>
                <td class="dir" title={e.dir === "out" ? "inspector → server" : "server → inspector"}>
                  {e.dir === "out" ? "→" : "←"}
                </td>
                <td>
                  {e.group !== undefined && (
                    <button
                      type="button"
                      class="group-chip"
                      style={`--hue:${(e.group * 67) % 360}`}
                      title="Show only this exchange"
                      onClick={(click) => {
                        click.stopPropagation();
                        setGroup(e.group);
                      }}
                    >
                      #{e.group}
                      {(rounds.get(e.group) ?? 0) > 1 && e.round ? ` · round ${e.round}` : ""}
                    </button>
                  )}
                </td>
                <td>
                  <span class={`kind ${e.kind}`}>{e.kind}</span>
                </td>
                <td class="mono">{e.method}</td>
                <td class="mono">{e.id}</td>
                <td class="summary">{summary(e)}</td>
                <td class="num">{e.latencyMs ?? ""}</td>
                <td class="num">{e.bytes}</td>
              </tr>
              {open === e.seq && (
                <tr class="detail" key={`${e.seq}-d`}>
                  <td colSpan={9}>
                    {e.truncated && <p class="hint">Too large to keep whole: the first characters.</p>}
                    <JsonView value={e.message} label="message" compact={e.truncated} />
                  </td>
                </tr>
              )}
            </>
          ))}
        </tbody>
      </table>
      {shown.length === 0 && <p class="hint">No messages yet.</p>}
    </section>
  );
}
