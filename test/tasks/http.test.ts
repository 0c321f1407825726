import { Client, type ClientOptions, type SubscriptionFilter } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/authorization-server.js";
import { type Running, requireBuild, start, until } from "../cli-call/helpers.js";
import { waitFor as waitUntil } from "../interop/helpers.js";

// Tasks against a real `mcpkit serve everything --port 0` process that requires tokens:
// each caller is the `sub` of its token, and a task belongs to the caller that made it.
// Clients are closed and made again to stand for a client that went away and came back.

let as: TestAuthorizationServer;
let server: Running;
let url = "";

beforeAll(async () => {
  requireBuild();
  as = await startAuthorizationServer();
  server = start(["serve", "everything", "--port", "0", "--auth-server", as.issuer, "--jwks-url", as.jwksUrl]);
  await until(() => /serving MCP on (http:\/\/\S+\/mcp)/.test(server.stderr), 15_000, "serve to print its URL");
  url = /serving MCP on (http:\/\/\S+\/mcp)/.exec(server.stderr)?.[1] as string;
}, 30_000);

afterAll(async () => {
  server?.child.kill("SIGKILL");
  await server?.done;
  await as?.close();
});

const clients = new Set<Client>();

/** A client for `sub`, with its own token, on a fresh connection. */
async function connectAs(sub: string, options: Partial<ClientOptions> = {}): Promise<Client> {
  const token = await as.sign({ sub, scope: "" }, { audience: url });
  const client = new Client({ name: `tasks-${sub}`, version: "1", ...options });
  await client.connect(streamableHttpClientTransport(url, { headers: { authorization: `Bearer ${token}` } }));
  clients.add(client);
  return client;
}

async function disconnect(client: Client): Promise<void> {
  clients.delete(client);
  await client.close();
}

afterAll(async () => {
  await Promise.all([...clients].map((c) => c.close()));
});

/** Asks again until `done` accepts the answer (10 s at most). */
async function pollUntil<T>(ask: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  return waitUntil(
    async () => {
      const value = await ask();
      return done(value) ? { value } : undefined;
    },
    what,
    10_000,
  ).then((answer) => answer.value);
}

describe("tasks over Streamable HTTP, against a real server process", () => {
  it("a task outlives its client: a new connection answers its question and gets the result", async () => {
    // The first client declares elicitation but leaves before the question comes: the task
    // waits for whoever comes back with the task id.
    const firstAsked: unknown[] = [];
    const first = await connectAs("alice", {
      elicitation: (params) => {
        firstAsked.push(params);
        return { action: "decline" };
      },
    });
    const started = await first.callToolAsTask("confirm_delete", { filename: "report.pdf" });
    const taskId = started.task?.taskId as string;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    // Wait until the task asks, then go away without answering.
    const state = await pollUntil(
      () => first.task(taskId).get(),
      (task) => task.status === "input_required",
      "the task to ask",
    );
    expect(state).toMatchObject({
      status: "input_required",
      statusMessage: "Waiting for confirmation to delete report.pdf",
    });
    await disconnect(first);

    const asked: string[] = [];
    const second = await connectAs("alice", {
      elicitation: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { confirm: true } };
      },
    });
    const result = await second.task(taskId).result();
    expect(result.content).toEqual([{ type: "text", text: "Deleted report.pdf" }]);
    expect(asked).toEqual(["Delete report.pdf?"]);
    expect(firstAsked).toEqual([]);
    await disconnect(second);
  }, 30_000);

  it("another principal is told the task does not exist: get, update, cancel", async () => {
    const alice = await connectAs("alice");
    const started = await alice.callToolAsTask("slow_compute", { seconds: 30, label: "alice's" });
    const taskId = started.task?.taskId as string;
    const bob = await connectAs("bob");
    const stranger = bob.task(taskId);
    const notFound = { code: -32602, message: expect.stringMatching(/Task not found/) };
    await expect(stranger.get()).rejects.toMatchObject(notFound);
    await expect(stranger.answer({ "elicit-1": { action: "accept" } })).rejects.toMatchObject(notFound);
    await expect(stranger.cancel()).rejects.toMatchObject(notFound);
    // Status notifications: Bob's listen leaves Alice's task out of what it acknowledges.
    const acknowledged = async (client: Client) => {
      const acks: unknown[] = [];
      const stop = client.on("notifications/subscriptions/acknowledged", (params) =>
        acks.push((params.notifications as { taskIds?: unknown }).taskIds),
      );
      const subscription = await client.listen({ taskIds: [taskId] } as SubscriptionFilter, () => {});
      await subscription.close();
      stop();
      return acks;
    };
    expect(await acknowledged(bob)).toEqual([[]]);
    expect(await acknowledged(alice)).toEqual([[taskId]]);
    // Bob's cancel did nothing: the task still runs for Alice, who can cancel it.
    expect(await alice.task(taskId).get()).toMatchObject({ status: "working" });
    await alice.task(taskId).cancel();
    expect(await alice.task(taskId).get()).toMatchObject({ status: "cancelled" });
    await disconnect(alice);
    await disconnect(bob);
  }, 30_000);

  it("a task past its TTL is gone (2025-11-25: the client asks for a short ttl)", async () => {
    const client = await connectAs("carol", { protocolVersion: "2025-11-25" });
    const started = await client.callToolAsTask("slow_compute", { seconds: 0, label: "short-lived" }, { ttlMs: 300 });
    const task = started.task;
    if (!task) throw new Error("expected a task");
    expect(task.latest).toMatchObject({ ttlMs: 300 });
    expect(await task.result()).toMatchObject({ content: [{ text: "Computed short-lived in 0s" }] });
    // Poll until the server has dropped it: the wait ends on the event, bounded.
    const gone = await pollUntil(
      () =>
        task.get().then(
          () => undefined,
          (error: unknown) => error,
        ),
      (error) => error !== undefined,
      "the task to expire",
    );
    expect(gone).toMatchObject({ code: -32602, message: expect.stringMatching(/Task not found/) });
    await disconnect(client);
  }, 30_000);
});
