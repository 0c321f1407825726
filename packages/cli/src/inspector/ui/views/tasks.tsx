import type { CallToolResult } from "mcpkit";
import { useState } from "preact/hooks";
import type { PageTask } from "../../contract/events.js";
import { call } from "../api.js";
import { ToolResult } from "../parts/content.js";
import { useStore } from "../store.js";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Tasks (the Tasks extension): the ones this inspector started or the server listed; status, result, cancel. */
export function TasksView() {
  const tasks = useStore((s) => s.tasks);
  const legacy = useStore((s) => s.connection.era === "legacy");
  const [error, setError] = useState<string>();
  const [results, setResults] = useState<Record<string, CallToolResult | string>>({});
  const list = Object.values(tasks).sort((a, b) => String(b.createdAt ?? "").localeCompare(String(a.createdAt ?? "")));
  const act = async (op: "tasks/get" | "tasks/cancel" | "tasks/result", task: PageTask) => {
    try {
      // tasks/get and tasks/cancel come back as task events too: only the result is kept here.
      if (op === "tasks/result") {
        const result = await call(op, { taskId: task.taskId });
        setResults({ ...results, [task.taskId]: result });
      } else await call(op, { taskId: task.taskId });
      setError(undefined);
    } catch (e) {
      if (op === "tasks/result") setResults({ ...results, [task.taskId]: (e as Error).message });
      else setError((e as Error).message);
    }
  };
  return (
    <section class="view" aria-labelledby="tasks-title">
      <div class="pane-head">
        <h2 id="tasks-title">
          Tasks <span class="count">{list.length}</span>
        </h2>
        <button
          type="button"
          class="small"
          onClick={() => call("tasks/list").catch((e: Error) => setError(e.message))}
          title={legacy ? "tasks/list" : "2026-07-28 has no tasks/list: these are the tasks this inspector saw"}
        >
          Refresh
        </button>
      </div>
      <p class="hint">
        Call a tool with “Run as a task” to start one.{" "}
        {!legacy && "A 2026-07-28 server lists no tasks, so these are the ones this inspector started."}
      </p>
      {error && <p class="error">{error}</p>}
      <table class="grid">
        <thead>
          <tr>
            <th>Task</th>
            <th>Status</th>
            <th>Message</th>
            <th>Created</th>
            <th>Poll</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {list.map((task) => (
            <>
              <tr key={task.taskId} data-task={task.taskId}>
                <td class="mono">{task.taskId}</td>
                <td>
                  <span class={`pill status-${task.status}`}>{task.status}</span>
                </td>
                <td>{task.statusMessage}</td>
                <td>{task.createdAt && new Date(task.createdAt).toLocaleTimeString()}</td>
                <td>{task.pollIntervalMs ?? task.pollInterval ?? ""}</td>
                <td class="actions">
                  <div class="row">
                    <button type="button" class="small" onClick={() => act("tasks/get", task)}>
                      Status
                    </button>
                    {!TERMINAL.has(task.status) && (
                      <button type="button" class="small danger" onClick={() => act("tasks/cancel", task)}>
                        Cancel
                      </button>
                    )}
                    {task.status === "completed" && (
                      <button type="button" class="small" onClick={() => act("tasks/result", task)}>
                        Result
                      </button>
                    )}
                  </div>
                </td>
              </tr>
              {results[task.taskId] !== undefined && (
                <tr key={`${task.taskId}-result`}>
                  <td colSpan={6}>
                    {typeof results[task.taskId] === "string" ? (
                      <p class="error">{results[task.taskId] as string}</p>
                    ) : (
                      <ToolResult result={results[task.taskId] as CallToolResult} />
                    )}
                  </td>
                </tr>
              )}
            </>
          ))}
        </tbody>
      </table>
    </section>
  );
}
