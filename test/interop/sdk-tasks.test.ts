/**
 * Interoperability of tasks (2025-11-25): the OFFICIAL TypeScript SDK client, whose
 * experimental tasks API creates, polls and reads tasks, drives `mcpkit serve everything
 * --stdio` as a real child process. The SDK parses every task message with its own schemas.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateTaskResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, firstText, MCPKIT_BIN } from "./helpers.js";

let client: Client;
const elicited: Record<string, unknown>[] = [];

beforeAll(async () => {
  assertBuilt();
  client = new Client(
    { name: "sdk-tasks-client", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, enforceStrictCapabilities: true },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited.push(request.params as Record<string, unknown>);
    return { action: "accept", content: { confirm: true } };
  });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [MCPKIT_BIN, "serve", "everything", "--stdio"] }),
    { timeout: 15_000 },
  );
  // The SDK decides per tool from tools/list (execution.taskSupport).
  await client.listTools();
}, 30_000);

afterAll(async () => {
  await client?.close();
});

/** Every message of a callToolStream, until it ends. */
async function stream(name: string, args: Record<string, unknown>) {
  const messages: { type: string; task?: { taskId: string; status: string }; result?: unknown; error?: unknown }[] = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }))
    messages.push(message);
  return messages;
}

describe("official SDK client → mcpkit server: tasks (2025-11-25)", () => {
  it("sees the tasks capability and each tool's taskSupport", async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === "slow_compute")?.execution).toEqual({ taskSupport: "optional" });
    expect(tools.find((t) => t.name === "failing_job")?.execution).toEqual({ taskSupport: "required" });
    expect(tools.find((t) => t.name === "greet")?.execution).toBeUndefined();
  });

  it("creates a task, polls it to completed, and reads the result with tasks/result", async () => {
    const messages = await stream("slow_compute", { seconds: 1, label: "interop" });
    expect(messages[0]).toMatchObject({ type: "taskCreated", task: { status: "working" } });
    expect(messages.some((m) => m.type === "taskStatus" && m.task?.status === "working")).toBe(true);
    const last = messages.at(-1);
    expect(last?.type).toBe("result");
    expect(firstText(last?.result)).toBe("Computed interop in 1s");
  }, 20_000);

  it("a task that asks: the elicitation comes on the session, tagged with the task", async () => {
    const messages = await stream("confirm_delete", { filename: "interop.txt" });
    const taskId = messages[0]?.task?.taskId;
    expect(firstText(messages.at(-1)?.result)).toBe("Deleted interop.txt");
    expect(elicited.at(-1)).toMatchObject({
      message: "Delete interop.txt?",
      _meta: { "io.modelcontextprotocol/related-task": { taskId } },
    });
  }, 20_000);

  it("asks for a ttl, lists the tasks, and cancels one (the answer is the cancelled task)", async () => {
    const created = await client.request(
      { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 600 }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    expect(created.task.ttl).toBe(60_000);
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: "cancelled" });
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("cancelled");
  }, 20_000);
});
