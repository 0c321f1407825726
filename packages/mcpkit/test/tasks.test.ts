import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, McpError } from "../src/jsonrpc/errors.js";
import type { WireTask } from "../src/protocol/tasks.js";
import type { SubscriptionFilter } from "../src/protocol/types/modern.js";
import { createServer, InMemoryTaskStore } from "../src/server/index.js";
import { connectInMemory, createLinkedPair } from "../src/testing/index.js";
import { initializeParams, rawPeer } from "./helpers.js";

/** A promise and the function that settles it: a test waits for an event, never a sleep. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function taskServer(options: { now?: () => number; pageSize?: number } = {}) {
  const store = new InMemoryTaskStore(options.now ? { now: options.now } : {});
  const server = createServer({
    name: "tasks",
    version: "1",
    ...(options.pageSize !== undefined && { pageSize: options.pageSize }),
    tasks: { store, pollIntervalMs: 5, ...(options.now && { now: options.now }) },
  });
  const proceed = gate();
  const cancelled = gate<unknown>();
  server.tool(
    "deploy",
    {
      input: z.object({ target: z.string() }),
      task: "optional",
    },
    async ({ target }, ctx) => {
      ctx.progress(1, 3, `building ${target}`);
      await proceed.opened;
      ctx.progress(2, 3, "waiting for approval");
      const answer = await ctx.elicit({
        message: `Deploy to ${target}?`,
        schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      });
      if (answer.content?.ok !== true) return { content: [{ type: "text", text: "not deployed" }], isError: true };
      return `deployed to ${target} as task ${ctx.task?.id}`;
    },
  );
  server.tool("hang", { task: "required" }, async (_a, ctx) => {
    await new Promise((_, reject) =>
      ctx.signal.addEventListener("abort", () => {
        cancelled.open(ctx.signal.reason);
        reject(ctx.signal.reason);
      }),
    );
    return "never";
  });
  server.tool("broken", { task: "optional" }, () => {
    throw new McpError(ErrorCode.InternalError, "the worker crashed", { worker: 3 });
  });
  server.tool("plain", {}, () => "plain");
  return { server, store, proceed, cancelled };
}

const confirm = { elicitation: () => ({ action: "accept" as const, content: { ok: true } }) };

describe("tasks, 2026-07-28 (the Tasks extension)", () => {
  it("runs a task: progress becomes the status message, the handler's question waits in the task, the result is inlined", async () => {
    const { server, proceed } = taskServer();
    const asked: unknown[] = [];
    const { client, close } = await connectInMemory(server, {
      protocolVersion: "2026-07-28",
      elicitation: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { ok: true } };
      },
    });
    const started = await client.callToolAsTask("deploy", { target: "prod" });
    if (!started.task) throw new Error("expected a task");
    const { task } = started;
    expect(task.latest).toMatchObject({ status: "working", pollIntervalMs: 5, ttlMs: 3_600_000 });
    const seen: WireTask[] = [];
    const result = task.result({
      onUpdate: (t) => {
        seen.push(t);
        if (t.statusMessage === "building prod") proceed.open();
      },
    });
    expect(await result).toMatchObject({
      content: [{ type: "text", text: `deployed to prod as task ${task.taskId}` }],
    });
    expect(asked).toEqual(["Deploy to prod?"]);
    expect(seen.map((t) => t.status)).toContain("input_required");
    expect(seen.at(-1)).toMatchObject({ status: "completed", result: { content: [{ type: "text" }] } });
    await close();
  });

  it("a client that does not declare the extension gets an ordinary answer, or -32021 for a task-only tool", async () => {
    const { server, proceed } = taskServer();
    proceed.open();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2026-07-28", ...confirm });
    const plain = await client.request("tools/call", { name: "deploy", arguments: { target: "qa" } });
    expect(plain).toMatchObject({
      resultType: "complete",
      content: [{ text: expect.stringMatching(/^deployed to qa/) }],
    });
    await expect(client.request("tools/call", { name: "hang", arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
    await expect(client.request("tasks/get", { taskId: "x" })).rejects.toMatchObject({ code: -32021 });
    await close();
  });

  it("callTool drives a task to its result when the client declares the extension", async () => {
    const { server, proceed } = taskServer();
    proceed.open();
    const { client, close } = await connectInMemory(server, {
      protocolVersion: "2026-07-28",
      capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
      ...confirm,
    });
    const result = await client.callTool("deploy", { target: "eu" });
    expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/^deployed to eu as task /) });
    await close();
  });

  it("cancels: the handler's signal aborts, the task stays cancelled, and result() says so", async () => {
    const { server, cancelled } = taskServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2026-07-28" });
    const { task } = await client.callToolAsTask("hang");
    if (!task) throw new Error("expected a task");
    await task.cancel();
    await cancelled.opened;
    expect(await task.get()).toMatchObject({ status: "cancelled" });
    await task.cancel(); // idempotent on 2026-07-28
    await expect(task.result()).rejects.toThrow(/was cancelled/);
    await close();
  });

  it("a JSON-RPC error of the handler fails the task with that error; the client's result() rejects with it", async () => {
    const { server } = taskServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2026-07-28" });
    const { task } = await client.callToolAsTask("broken");
    if (!task) throw new Error("expected a task");
    const error = await task.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InternalError, message: "the worker crashed", data: { worker: 3 } });
    expect(task.latest).toMatchObject({ status: "failed", error: { code: -32603 } });
    await close();
  });

  it("a task past its TTL is gone (injected clock)", async () => {
    let now = 1_800_000_000_000;
    const { server } = taskServer({ now: () => now });
    server.tool("short", { task: { support: "optional", ttlMs: 1000 } }, () => "quick");
    const { client, close } = await connectInMemory(server, { protocolVersion: "2026-07-28" });
    const { task } = await client.callToolAsTask("short");
    if (!task) throw new Error("expected a task");
    expect(await task.result()).toMatchObject({ content: [{ text: "quick" }] });
    now += 999;
    expect((await task.get()).ttlMs).toBe(1000);
    now += 1;
    await expect(task.get()).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/not found/) });
    await close();
  });

  it("sends notifications/tasks on a subscriptions/listen stream for the caller's tasks", async () => {
    const { server, proceed } = taskServer();
    const { client, close } = await connectInMemory(server, {
      protocolVersion: "2026-07-28",
      capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
      ...confirm,
    });
    const { task } = await client.callToolAsTask("deploy", { target: "eu" });
    if (!task) throw new Error("expected a task");
    const seen: Record<string, unknown>[] = [];
    const done = gate();
    const filter = { taskIds: [task.taskId, "someone-elses-or-unknown"] } as SubscriptionFilter;
    const subscription = await client.listen(filter, (n) => {
      seen.push(n.params as Record<string, unknown>);
      if (n.params?.status === "input_required")
        void task.answer({ "elicit-1": { action: "accept", content: { ok: true } } });
      if (n.params?.status === "completed") done.open();
    });
    proceed.open();
    await done.opened;
    expect(seen.map((p) => p.status)).toContain("input_required");
    expect(seen.find((p) => p.status === "input_required")).toMatchObject({
      taskId: task.taskId,
      inputRequests: { "elicit-1": { method: "elicitation/create" } },
    });
    expect(seen.at(-1)).toMatchObject({
      taskId: task.taskId,
      status: "completed",
      result: { content: [{ type: "text" }] },
    });
    await subscription.close();
    await close();
  });

  it("tasks/update refuses a malformed answer to a pending question and ignores unknown keys", async () => {
    const { server, proceed } = taskServer();
    proceed.open();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2026-07-28", ...confirm });
    const { task } = await client.callToolAsTask("deploy", { target: "db" });
    if (!task) throw new Error("expected a task");
    let state = await task.get();
    while (state.status !== "input_required") state = await new Promise((r) => setTimeout(r, 5)).then(() => task.get());
    await expect(task.answer({ "elicit-1": { action: "maybe" } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('"action" must be accept, decline or cancel'),
    });
    await task.answer({ "not-asked": { whatever: true } });
    expect(await task.get()).toMatchObject({ status: "input_required", inputRequests: { "elicit-1": {} } });
    await task.answer({ "elicit-1": { action: "accept", content: { ok: true } } });
    expect(await task.result({ answerInput: false })).toMatchObject({
      content: [{ text: expect.stringMatching(/^deployed to db/) }],
    });
    await close();
  });

  it("refuses task notifications to a listen request that does not declare the extension", async () => {
    const { server } = taskServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2026-07-28" });
    // client.listen declares it for taskIds; a raw request does not.
    const listen = client.request("subscriptions/listen", { notifications: { taskIds: ["x"] } });
    await expect(listen).rejects.toMatchObject({ code: -32021 });
    await close();
  });

  it("lists no execution.taskSupport (2025-11-25's field) and declares the extension", async () => {
    const { server } = taskServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2026-07-28" });
    const tools = await client.tools();
    expect(tools.find((t) => t.name === "deploy")).not.toHaveProperty("execution");
    expect(client.serverCapabilities?.extensions).toHaveProperty(["io.modelcontextprotocol/tasks"]);
    expect(client.serverCapabilities).not.toHaveProperty("tasks");
    await close();
  });
});

describe("tasks, 2025-11-25 (basic/utilities/tasks)", () => {
  it("creates a task on request, streams status notifications, asks on the session, and answers tasks/result", async () => {
    const { server, proceed } = taskServer();
    const statuses: unknown[] = [];
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25", ...confirm });
    client.on("notifications/tasks/status", (params) => statuses.push(params.status));
    expect(client.serverCapabilities?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect((await client.tools()).find((t) => t.name === "deploy")?.execution).toEqual({ taskSupport: "optional" });
    const started = await client.callToolAsTask("deploy", { target: "prod" }, { ttlMs: 5000 });
    if (!started.task) throw new Error("expected a task");
    const { task } = started;
    expect(task.latest).toMatchObject({ status: "working", ttlMs: 5000 });
    const listed = (await client.request("tasks/list", {})) as { tasks: { taskId: string; ttl: number }[] };
    expect(listed.tasks).toEqual([expect.objectContaining({ taskId: task.taskId, ttl: 5000 })]);
    proceed.open();
    const result = await task.result();
    expect(result).toMatchObject({
      content: [{ text: `deployed to prod as task ${task.taskId}` }],
      _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } },
    });
    expect(statuses).toContain("input_required");
    expect(statuses.at(-1)).toBe("completed");
    await expect(task.cancel()).rejects.toMatchObject({ code: -32602, message: /terminal status 'completed'/ });
    await close();
  });

  it("an anonymous session's tasks are its own: another session neither lists, reads nor cancels them", async () => {
    const { server } = taskServer({ pageSize: 2 });
    const a = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    const b = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    const made: string[] = [];
    for (let n = 0; n < 5; n++) made.push((await a.client.callToolAsTask("broken")).task?.taskId as string);
    const page = (client: typeof a.client, cursor?: string) =>
      client.request("tasks/list", cursor === undefined ? {} : { cursor }) as Promise<{
        tasks: { taskId: string }[];
        nextCursor?: string;
      }>;
    const mine: string[] = [];
    let cursor: string | undefined;
    do {
      const next = await page(a.client, cursor);
      mine.push(...next.tasks.map((t) => t.taskId));
      cursor = next.nextCursor;
    } while (cursor !== undefined);
    expect(mine).toEqual(made);
    // Filtered in the store, cursor included: B's page is empty and names none of A's tasks.
    expect(await page(b.client)).toEqual({ tasks: [] });
    await expect(page(b.client, made[2])).rejects.toMatchObject({ code: -32602 });
    // The id alone does not open another session's task.
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"])
      await expect(b.client.request(method, { taskId: made[0] })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("Task not found"),
      });
    expect(await a.client.task(made[0] as string).get()).toMatchObject({ status: "failed" });
    await expect(a.client.request("tasks/list", { cursor: "bogus" })).rejects.toMatchObject({ code: -32602 });
    await a.close();
    await b.close();
  });

  it("a task-augmented request cancelled before its answer cancels the task the client never learnt of", async () => {
    const { server, store, cancelled } = taskServer();
    const created: string[] = [];
    const create = store.create.bind(store);
    store.create = (task, quota) => {
      created.push(task.taskId);
      return create(task, quota);
    };
    const [clientSide, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    const peer = rawPeer(clientSide);
    await peer.request("initialize", initializeParams("2025-11-25"));
    peer.notify("notifications/initialized");
    // The call, and at once its cancellation, while the task is being stored.
    peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "hang", arguments: {}, task: {} } });
    peer.notify("notifications/cancelled", { requestId: 7, reason: "changed my mind" });
    expect(String(await cancelled.opened)).toContain("The task was cancelled");
    expect(await store.get(created[0] as string)).toMatchObject({
      status: "cancelled",
      statusMessage: "The request that made the task was cancelled",
    });
  });

  it("refuses a task for a tool that forbids one, and a call without one for a tool that requires it", async () => {
    const { server } = taskServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    await expect(client.request("tools/call", { name: "plain", arguments: {}, task: {} })).rejects.toMatchObject({
      code: -32601,
    });
    await expect(client.request("tools/call", { name: "hang", arguments: {} })).rejects.toMatchObject({
      code: -32601,
      message: /must be called as a task/,
    });
    // callToolAsTask on a tool that cannot be a task just calls it.
    expect(await client.callToolAsTask("plain")).toEqual({ result: { content: [{ type: "text", text: "plain" }] } });
    await close();
  });

  it("cancels with the task as the answer; a failed task's tasks/result is its JSON-RPC error", async () => {
    const { server, cancelled } = taskServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    const { task } = await client.callToolAsTask("hang");
    if (!task) throw new Error("expected a task");
    expect(await client.request("tasks/cancel", { taskId: task.taskId })).toMatchObject({
      taskId: task.taskId,
      status: "cancelled",
    });
    await cancelled.opened;
    const failing = await client.callToolAsTask("broken");
    await expect(failing.task?.result()).rejects.toMatchObject({ code: -32603, message: "the worker crashed" });
    await close();
  });
});

describe('tasks that start in the handler (startsAt: "handler")', () => {
  function gatedServer() {
    const server = createServer({ name: "gated", version: "1", tasks: { pollIntervalMs: 5 } });
    server.tool(
      "maybe-long",
      { input: z.object({ long: z.boolean() }), task: { support: "optional", startsAt: "handler" } },
      async ({ long }, ctx) => {
        const answer = await ctx.elicit({
          message: "Who?",
          schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        });
        if (!long) return `quick for ${answer.content?.name}, task: ${ctx.task?.id ?? "none"}`;
        await ctx.startTask();
        return `long for ${answer.content?.name}, task: ${ctx.task?.id}`;
      },
    );
    return server;
  }
  const ada = { elicitation: () => ({ action: "accept" as const, content: { name: "Ada" } }) };

  it("2026-07-28: asks on the request first, then becomes a task only if the handler says so", async () => {
    const { client, close } = await connectInMemory(gatedServer(), { protocolVersion: "2026-07-28", ...ada });
    expect(await client.callToolAsTask("maybe-long", { long: false })).toEqual({
      result: expect.objectContaining({ content: [{ type: "text", text: "quick for Ada, task: none" }] }),
    });
    const started = await client.callToolAsTask("maybe-long", { long: true });
    if (!started.task) throw new Error("expected a task");
    const result = await started.task.result();
    expect(result.content).toEqual([{ type: "text", text: `long for Ada, task: ${started.task.taskId}` }]);
    await close();
  });

  it("2025-11-25: a client that asked for a task gets one at once; the question comes inside it", async () => {
    const { client, close } = await connectInMemory(gatedServer(), { protocolVersion: "2025-11-25", ...ada });
    const quick = await client.callToolAsTask("maybe-long", { long: false });
    if (!quick.task) throw new Error("expected a task");
    const result = await quick.task.result();
    expect(result.content).toEqual([{ type: "text", text: `quick for Ada, task: ${quick.task.taskId}` }]);
    await close();
  });
});

describe("tasks on revisions without them", () => {
  it("2025-06-18: no execution field, and a task-only tool is refused", async () => {
    const { server } = taskServer();
    const { client, close } = await connectInMemory(server, { protocolVersion: "2025-06-18" });
    expect((await client.tools()).find((t) => t.name === "deploy")).not.toHaveProperty("execution");
    await expect(client.callTool("hang")).rejects.toMatchObject({ code: -32601, message: /does not have/ });
    await close();
  });
});
