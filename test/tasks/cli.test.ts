import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MCPKIT_SERVER, mcpkit, type Running, requireBuild, serveHttp, stopAll } from "../cli-call/helpers.js";

// `mcpkit call` with tasks: a tool the server runs as a task shows its states, --detach
// leaves it running and prints its id, and `task ID` comes back to it from a new process.

let url = "";
let server: Running | undefined;

beforeAll(async () => {
  requireBuild();
  ({ url, server } = await serveHttp());
}, 30_000);
afterEach(stopAll);
afterAll(async () => {
  server?.child.kill("SIGKILL");
  await server?.done;
});

describe("mcpkit call and tasks", () => {
  it("--detach prints the task id; `task ID` re-attaches from another process, shows progress, prints the result", async () => {
    const detached = await mcpkit(["call", "--detach", url, "slow_compute", "seconds=2", "label=nightly"]);
    expect(detached.code).toBe(0);
    const taskId = detached.stdout.trim();
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(detached.stderr).toContain(`re-attach with: mcpkit call ${url} task ${taskId}`);

    const attached = await mcpkit(["call", url, "task", taskId], 20_000);
    expect(attached).toMatchObject({ code: 0, stdout: "Computed nightly in 2s\n" });
    expect(attached.stderr).toMatch(new RegExp(`task ${taskId}: working, step \\d of 2`));
    expect(attached.stderr).toContain(`task ${taskId}: completed`);

    const status = await mcpkit(["call", "--json", url, "task", taskId, "status"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      taskId,
      status: "completed",
      result: { content: [{ text: "Computed nightly in 2s" }] },
    });
  }, 40_000);

  it("a plain call of a task tool follows the task to its result; cancel ends another", async () => {
    const call = await mcpkit(["call", url, "slow_compute", "seconds=0"], 20_000);
    expect(call).toMatchObject({ code: 0, stdout: "Computed result in 0s\n" });
    expect(call.stderr).toMatch(/task [0-9a-f-]{36}: completed/);

    const detached = await mcpkit(["call", "--json", "--detach", url, "slow_compute", "seconds=600"]);
    const task = JSON.parse(detached.stdout) as { taskId: string; status: string; pollIntervalMs: number };
    expect(task).toMatchObject({ status: "working", pollIntervalMs: 200 });
    const cancelled = await mcpkit(["call", url, "task", task.taskId, "cancel"]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stderr).toContain(`task ${task.taskId}: cancelled, Cancelled by the client`);
  }, 40_000);

  it("refuses --detach where it cannot work, and an unknown task id is a protocol error", async () => {
    const stdio = await mcpkit(["call", "--detach", "slow_compute", "seconds=1", "--", ...MCPKIT_SERVER]);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain("--detach needs a server over HTTP");
    const notCall = await mcpkit(["call", "--detach", url, "tools"]);
    expect(notCall.code).toBe(2);
    const unknown = await mcpkit(["call", url, "task", "no-such-task"]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("Task not found");
  }, 40_000);
});
