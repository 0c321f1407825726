import { describe, expect, it } from "vitest";
import { Client } from "../src/client/index.js";
import type { JsonRpcMessage } from "../src/jsonrpc/types.js";
import { createServer, InMemoryTaskStore } from "../src/server/index.js";
import type { TaskRecord } from "../src/server/tasks/store.js";
import { createLinkedPair } from "../src/testing/index.js";
import type { Transport, TransportSink } from "../src/transports/transport.js";

// A client gives up on a task-augmented tools/call (it aborts, or times out) while the
// server is still storing the task. The server answers before the cancellation reaches it
// (the two cross on the wire), so the server keeps the task running; the client, which
// gave up, gets the task's id after all. Then it cancels the task (tasks/cancel) rather
// than leave it running for no one, in both eras.

/** A promise and the function that settles it: a test waits for an event, never a sleep. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The server's side of a link on which a cancellation is slow: notifications/cancelled is
 * held back until the server has answered the request it names (the answer crossed it).
 */
function slowCancellations(inner: Transport): Transport {
  const held = new Map<unknown, unknown>();
  let sink: TransportSink | undefined;
  return {
    binding: "memory",
    start(s) {
      sink = s;
      return inner.start({
        message: (value, info) => {
          const m = value as { method?: string; params?: { requestId?: unknown } };
          if (m.method === "notifications/cancelled") held.set(m.params?.requestId, value);
          else s.message(value, info);
        },
        invalid: (error) => s.invalid(error),
        close: (reason) => s.close(reason),
      });
    },
    send(message, options) {
      inner.send(message, options);
      const id = (message as JsonRpcMessage & { id?: unknown }).id;
      const cancellation = held.get(id);
      if (cancellation !== undefined) {
        held.delete(id);
        sink?.message(cancellation);
      }
    },
    close: () => inner.close(),
  };
}

/** A server whose task store is slow to create a task: the test says when it is done. */
function slowTaskServer() {
  const store = new InMemoryTaskStore();
  const creating = gate();
  const storing = gate();
  const stored = gate<string>();
  const create = store.create.bind(store);
  store.create = async (task: TaskRecord, quota) => {
    creating.open();
    await storing.opened;
    const made = await create(task, quota);
    stored.open(task.taskId);
    return made;
  };
  const server = createServer({ name: "slow-tasks", version: "1", tasks: { store, pollIntervalMs: 5 } });
  const aborted = gate<unknown>();
  server.tool("long", { task: "required" }, async (_args, ctx) => {
    await new Promise((_, reject) =>
      ctx.signal.addEventListener("abort", () => {
        aborted.open(ctx.signal.reason);
        reject(ctx.signal.reason);
      }),
    );
    return "never";
  });
  return { server, store, creating, storing, stored, aborted };
}

describe("a CreateTaskResult that comes after the call was given up", () => {
  it.each(["2025-11-25", "2026-07-28"] as const)(
    "%s: the client cancels the task once it learns its id",
    async (revision) => {
      const { server, store, creating, storing, stored, aborted } = slowTaskServer();
      const [clientSide, serverSide] = createLinkedPair();
      await server.connect(slowCancellations(serverSide));
      const client = new Client({ name: "impatient", version: "1", protocolVersion: revision });
      await client.connect(clientSide);

      const giveUp = new AbortController();
      const call = client.callToolAsTask("long", {}, { signal: giveUp.signal });
      // The server is storing the task when the client gives up.
      await creating.opened;
      giveUp.abort(new Error("not waiting any more"));
      await expect(call).rejects.toThrow("not waiting any more");
      // Only now does the server finish storing the task, and answer with its id.
      storing.open();
      const taskId = await stored.opened;

      // The client, told the id too late for the call, cancels the task: its handler stops.
      expect(String(await aborted.opened)).toContain("cancelled");
      expect(await store.get(taskId)).toMatchObject({ status: "cancelled" });
      await client.close();
    },
  );
});
