/**
 * Interoperability of tasks (2025-11-25), the other direction: mcpkit's client drives the
 * official SDK's experimental task server (a real child process over stdio).
 */
import { fileURLToPath } from "node:url";
import { Client } from "mcpkit/client";
import { stdioClientTransport } from "mcpkit/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let client: Client;

beforeAll(async () => {
  client = new Client({ name: "mcpkit-tasks-interop", version: "1.0.0", protocolVersion: "2025-11-25" });
  await client.connect(
    stdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL("fixtures/sdk-task-server.mjs", import.meta.url))],
    }),
  );
}, 30_000);

afterAll(async () => {
  await client?.close();
});

describe("mcpkit client → official SDK task server (2025-11-25)", () => {
  it("calls a task-only tool as a task, polls it at the server's interval, and reads its result", async () => {
    const started = await client.callToolAsTask("count", { to: 3 }, { ttlMs: 30_000 });
    const task = started.task;
    if (!task) throw new Error(`expected a task, got ${JSON.stringify(started.result)}`);
    expect(task.latest).toMatchObject({ status: "working", pollIntervalMs: 50 });
    const states: string[] = [];
    const result = await task.result({ onUpdate: (t) => states.push(t.status) });
    expect(result.content).toEqual([{ type: "text", text: "counted to 3" }]);
    expect(states.at(-1)).toBe("completed");
    const listed = (await client.request("tasks/list", {})) as { tasks: { taskId: string }[] };
    expect(listed.tasks.map((t) => t.taskId)).toContain(task.taskId);
  }, 20_000);
});
