import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../src/client/client.js";
import { createStreamableHttpHandler } from "../src/endpoints/http/index.js";
import { createServer, InMemoryTaskStore, type McpServer, type TaskServerOptions } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";
import { type Listening, listen } from "../src/transports/http/node.js";
import { streamableHttpClientTransport } from "../src/transports/streamable-http/client/index.js";

// Bounds on tasks (the Tasks extension §Security Considerations): how many one client
// keeps, how large an argument and a result may be, how long anything is kept.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function boundedServer(tasks: TaskServerOptions = {}): McpServer {
  const server = createServer({ name: "bounded", version: "1", tasks: { pollIntervalMs: 5, ...tasks } });
  server.tool(
    "produce",
    { input: { type: "object", properties: { bytes: { type: "integer" } } }, task: "optional" },
    (args) => "x".repeat(Number(args.bytes ?? 1)),
  );
  server.tool("forever", { task: { support: "optional", ttlMs: null } }, () => "kept");
  return server;
}

async function modernClient(server: McpServer) {
  const connected = await connectInMemory(server, { protocolVersion: "2026-07-28" });
  closers.push(connected.close);
  return connected.client;
}

async function onHttp(server: McpServer): Promise<Listening> {
  const listening = await listen(createStreamableHttpHandler(server), { host: "127.0.0.1", port: 0 });
  closers.push(() => listening.close());
  return listening;
}

async function httpClient(listening: Listening, protocolVersion: "2025-11-25" | "2026-07-28") {
  const client = new Client({ name: "bounds", version: "1", protocolVersion });
  await client.connect(streamableHttpClientTransport(new URL("/", listening.url)));
  closers.push(() => client.close());
  return client;
}

describe("task bounds", () => {
  it("counts one client's tasks across all its sessions (same address), running or finished", async () => {
    const listening = await onHttp(boundedServer({ maxTasksPerClient: 3 }));
    // Three 2025-11-25 sessions and a 2026-07-28 client, all from 127.0.0.1: one client.
    const sessions = await Promise.all([1, 2, 3].map(() => httpClient(listening, "2025-11-25")));
    const modern = await httpClient(listening, "2026-07-28");
    for (const session of sessions) expect((await session.callToolAsTask("produce")).task).toBeDefined();
    for (const client of [sessions[0], modern]) {
      await expect(client?.callToolAsTask("produce")).rejects.toMatchObject({
        code: -32600,
        message: expect.stringMatching(/^Too many tasks: this client already has 3 stored/),
        data: { reason: "too-many-tasks", limit: 3 },
      });
    }
  });

  it("refuses a call whose arguments are over maxArgumentBytes before it runs", async () => {
    const client = await modernClient(boundedServer({ maxArgumentBytes: 1000 }));
    expect((await client.callToolAsTask("produce", { bytes: 10, pad: "y".repeat(900) })).task).toBeDefined();
    await expect(client.callToolAsTask("produce", { bytes: 10, pad: "y".repeat(1000) })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("more than the 1000 this server accepts for a call that runs as a task"),
      data: { reason: "arguments-too-large", limit: 1000 },
    });
  });

  it("a result over maxResultBytes fails the task with an error that says so; nothing of it is stored", async () => {
    const store = new InMemoryTaskStore();
    const client = await modernClient(boundedServer({ store, maxResultBytes: 10_000 }));
    const started = await client.callToolAsTask("produce", { bytes: 20_000 });
    const taskId = started.task?.taskId as string;
    await expect(started.task?.result()).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^The task's result is \d+ bytes of JSON, more than the 10000 this server stores/),
    });
    const stored = await store.get(taskId);
    expect(stored).toMatchObject({ status: "failed", error: { data: { reason: "result-too-large", limit: 10_000 } } });
    expect(stored?.result).toBeUndefined();
  });

  it("keeps no task longer than maxTtlMs, whatever the tool or a 2025-11-25 client asks for", async () => {
    const server = boundedServer({ maxTtlMs: 60_000 });
    const modern = await modernClient(server);
    const forever = await modern.callToolAsTask("forever");
    expect(forever.task?.latest?.ttlMs).toBe(60_000);
    const legacy = (await connectInMemory(server, { protocolVersion: "2025-11-25" })).client;
    const asked = await legacy.callToolAsTask("produce", {}, { ttlMs: 10 * 86_400_000 });
    expect(asked.task?.latest?.ttlMs).toBe(60_000);
  });

  it("holds a bounded amount of memory whatever one client asks for (heap measured after GC)", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const limits = { maxTasksPerClient: 40, maxResultBytes: 256 * 1024 };
    const client = await modernClient(boundedServer(limits));
    const before = heap();
    // 200 tasks whose results fit (each ~200 KB): only 40 are kept at once.
    let refused = 0;
    for (let n = 0; n < 200; n++) {
      const started = await client.callToolAsTask("produce", { bytes: 200_000 }).catch(() => undefined);
      if (started?.task) await started.task.result();
      else refused++;
    }
    // 20 results of 5 MB each: every one fails the task; none is kept.
    for (let n = 0; n < 20; n++) {
      const started = await client.callToolAsTask("produce", { bytes: 5_000_000 }).catch(() => undefined);
      await started?.task?.result().catch(() => undefined);
    }
    const grown = heap() - before;
    const kept = limits.maxTasksPerClient * 200_000;
    process.stdout.write(
      `task bounds: heap grew ${(grown / 1e6).toFixed(1)} MB for 220 tasks asked (${refused} refused); ` +
        `40 kept results are ${(kept / 1e6).toFixed(1)} MB; unbounded, the 200 results alone would be 40 MB and the 20 large ones 100 MB\n`,
    );
    expect(refused).toBe(160);
    expect(grown).toBeLessThan(kept * 2);
  });
});
