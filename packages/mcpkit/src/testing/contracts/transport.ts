import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Client } from "../../client/client.js";
import type { ClientOptions } from "../../client/client-options.js";
import { McpError } from "../../jsonrpc/errors.js";
import type { CallToolResult } from "../../protocol/types/features.js";
import { McpServer } from "../../server/mcp-server.js";
import type { Transport } from "../../transports/transport.js";
import type { ContractCase } from "./case.js";

/**
 * The server every transport contract case talks to. A transport under test puts it
 * behind the transport: `server.connect(serverSide)` in process, or a child process or
 * HTTP endpoint that serves `contractServer()`.
 */
export function contractServer(): McpServer {
  const server = new McpServer({ name: "contract", version: "1.0.0" });
  let cancelled = 0;
  const object = { type: "object" } as const;
  server.tool("echo", { input: object }, (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
  server.tool(
    "progress",
    { input: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] } },
    async (args, ctx) => {
      const count = Number(args.count);
      for (let i = 1; i <= count; i++) ctx.progress(i, count);
      return "done";
    },
  );
  server.tool("wait", { input: object }, (_args, ctx) => {
    ctx.progress(1);
    return new Promise((resolve) => {
      ctx.signal.addEventListener(
        "abort",
        () => {
          cancelled++;
          resolve("aborted");
        },
        { once: true },
      );
    });
  });
  server.tool("cancelled", { input: object }, () => String(cancelled));
  server.tool(
    "big",
    { input: { type: "object", properties: { bytes: { type: "integer" } }, required: ["bytes"] } },
    (args) => "x".repeat(Number(args.bytes)),
  );
  server.tool("roots", { input: object }, async (_args, ctx) => JSON.stringify(await ctx.listRoots()));
  // Answers held until released by another request, in any order: what tells correlation
  // by id from correlation by arrival. A release may come first; the hold then ends at once.
  const held = new Map<string, () => void>();
  const released = new Set<string>();
  const key = { type: "object", properties: { key: { type: "string" } }, required: ["key"] } as const;
  server.tool("hold", { input: key }, (args, ctx) => {
    const name = String(args.key);
    if (released.delete(name)) return name;
    return new Promise<string>((resolve) => {
      held.set(name, () => resolve(name));
      ctx.signal.addEventListener("abort", () => held.delete(name), { once: true });
    });
  });
  server.tool("release", { input: key }, (args) => {
    const name = String(args.key);
    const release = held.get(name);
    if (release) {
      held.delete(name);
      release();
    } else released.add(name);
    return "released";
  });
  return server;
}

/** A client-side transport reaching `contractServer()`, and how to tear down what serves it. */
export interface ContractConnection {
  transport: Transport;
  /**
   * Another client transport to the same server: a second session, where the binding
   * allows several (HTTP). Without it, a case that needs two clients opens a second connection.
   */
  another?(): Transport;
  close?(): Promise<void>;
}

const ROOTS = [{ uri: "file:///contract", name: "contract" }];
const textOf = (result: CallToolResult) => {
  const block = result.content[0];
  assert.ok(block && block.type === "text", "a text result");
  return block.text;
};

/**
 * What every transport must do to carry MCP faithfully: run it for each shipped binding
 * (in-memory, stdio, Streamable HTTP, HTTP+SSE) and for a custom one. `clientOptions`
 * pick the era where a binding offers both (e.g. `protocolVersion: "2025-11-25"`).
 */
export function transportContract(
  open: () => Promise<ContractConnection>,
  clientOptions: Partial<ClientOptions> = {},
): ContractCase[] {
  const newClient = () => new Client({ name: "contract-client", version: "1.0.0", roots: ROOTS, ...clientOptions });

  async function session(run: (client: Client, connection: ContractConnection) => Promise<void>): Promise<void> {
    const connection = await open();
    const client = newClient();
    try {
      await client.connect(connection.transport);
      await run(client, connection);
    } finally {
      await client.close();
      await connection.close?.();
    }
  }

  /** A second client: on the same server when the binding allows it, else on a server of its own. */
  async function secondClient(connection: ContractConnection): Promise<{ client: Client; close(): Promise<void> }> {
    const other = connection.another ? undefined : await open();
    const client = newClient();
    await client.connect(connection.another?.() ?? (other as ContractConnection).transport);
    return {
      client,
      close: async () => {
        await client.close();
        await other?.close?.();
      },
    };
  }

  /** Answers to `hold` calls, in the order they come: which key each call asked for and what it got. */
  function answers() {
    const ready: { asked: string; got: string }[] = [];
    const waiters: ((a: { asked: string; got: string }) => void)[] = [];
    const failures: unknown[] = [];
    return {
      push(answer: { asked: string; got: string }) {
        const waiter = waiters.shift();
        if (waiter) waiter(answer);
        else ready.push(answer);
      },
      fail(error: unknown) {
        failures.push(error);
      },
      /** The next answer to come, from any of the calls this channel collects. */
      next(): Promise<{ asked: string; got: string }> {
        if (failures.length > 0) return Promise.reject(failures[0]);
        const answer = ready.shift();
        return answer ? Promise.resolve(answer) : new Promise((resolve) => waiters.push(resolve));
      },
    };
  }
  type Answers = ReturnType<typeof answers>;

  /** Calls `hold` for each key; their answers go to `channel`, so a case sees a misdelivered one at once. */
  function holdAll(client: Client, keys: string[], channel: Answers = answers()): Answers {
    for (const key of keys) {
      client.callTool("hold", { key }).then(
        (result) => channel.push({ asked: key, got: textOf(result) }),
        (error: unknown) => channel.fail(error),
      );
    }
    return channel;
  }

  /**
   * Releases a held request and waits for the next answer, before the release's own
   * answer: a transport that misdelivers may never answer the release.
   */
  async function release(client: Client, key: string, holds: Answers) {
    const released = client.callTool("release", { key }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.deepEqual(await holds.next(), { asked: key, got: key }, "the answer reached the request it names");
    const failed = await released;
    if (failed) throw failed;
  }

  const keysFor = (who: string, count: number) =>
    Array.from({ length: count }, (_, n) => `${who}-${n}-${randomUUID()}`);

  return [
    {
      name: "connects and learns who the server is",
      run: () =>
        session(async (client) => {
          assert.equal(client.serverInfo?.name, "contract");
          assert.ok(client.serverCapabilities?.tools, "the server's capabilities arrived");
        }),
    },
    {
      name: "carries JSON unchanged: unicode, escapes, nesting, numbers",
      run: () =>
        session(async (client) => {
          const value = {
            text: 'héllo — 世界 🚀 \u0000 \n\t"quoted" \\ </script>',
            nested: { list: [1, 2.5, -3e-7, true, false, null, { deep: [[[]]] }] },
            big: Number.MAX_SAFE_INTEGER,
          };
          const result = await client.callTool("echo", value);
          assert.deepEqual(JSON.parse(textOf(result)), value);
        }),
    },
    {
      name: "gives each of many concurrent requests its own answer",
      run: () =>
        session(async (client) => {
          const answers = await Promise.all(
            Array.from({ length: 20 }, (_, n) => client.callTool("echo", { n }).then((r) => JSON.parse(textOf(r)).n)),
          );
          assert.deepEqual(
            answers,
            Array.from({ length: 20 }, (_, n) => n),
          );
        }),
    },
    {
      name: "answers requests out of order, each to the request that asked",
      run: () =>
        session(async (client) => {
          const keys = keysFor("out-of-order", 5);
          const holds = holdAll(client, keys);
          // Released last to first: the newest request is answered first.
          for (const key of [...keys].reverse()) await release(client, key, holds);
        }),
    },
    {
      name: "keeps a delayed answer for its request while later requests come and go",
      run: () =>
        session(async (client) => {
          const [key] = keysFor("delayed", 1) as [string];
          const held = holdAll(client, [key]).next();
          const quick = Promise.all(
            Array.from({ length: 10 }, (_, n) => client.callTool("echo", { n }).then((r) => JSON.parse(textOf(r)).n)),
          );
          const first = await Promise.race([quick.then((n) => ({ quick: n })), held.then((a) => ({ held: a }))]);
          assert.ok("quick" in first, `the held request was answered before its release: ${JSON.stringify(first)}`);
          assert.deepEqual(
            first.quick,
            Array.from({ length: 10 }, (_, n) => n),
          );
          await client.callTool("release", { key });
          assert.deepEqual(await held, { asked: key, got: key });
        }),
    },
    {
      name: "keeps two sessions apart when both have the same request ids in flight",
      run: () =>
        session(async (first, connection) => {
          const second = await secondClient(connection);
          try {
            // Two fresh clients number their requests alike: the same ids are pending on both.
            const mine = keysFor("first", 3);
            const theirs = keysFor("second", 3);
            // One channel for both: whichever session hears an answer, it must be the one released.
            const holds = holdAll(second.client, theirs, holdAll(first, mine));
            for (const key of [theirs[0], mine[2], theirs[1], mine[1], theirs[2], mine[0]] as string[])
              await release(mine.includes(key) ? first : second.client, key, holds);
          } finally {
            await second.close();
          }
        }),
    },
    {
      name: "delivers a request's notifications before its result, in order",
      run: () =>
        session(async (client) => {
          const seen: number[] = [];
          const result = await client.callTool("progress", { count: 10 }, { onprogress: (p) => seen.push(p.progress) });
          assert.equal(textOf(result), "done");
          assert.deepEqual(
            seen,
            Array.from({ length: 10 }, (_, i) => i + 1),
          );
        }),
    },
    {
      name: "carries a 1 MiB argument and a 1 MiB result",
      run: () =>
        session(async (client) => {
          const text = "y".repeat(1024 * 1024);
          assert.equal(JSON.parse(textOf(await client.callTool("echo", { text }))).text, text);
          assert.equal(textOf(await client.callTool("big", { bytes: 1024 * 1024 })).length, 1024 * 1024);
        }),
    },
    {
      name: "cancels: the caller's abort rejects the call and aborts the handler",
      run: () =>
        session(async (client) => {
          const controller = new AbortController();
          let started!: () => void;
          const running = new Promise<void>((resolve) => {
            started = resolve;
          });
          const call = client.callTool("wait", {}, { signal: controller.signal, onprogress: () => started() });
          await running;
          controller.abort(new Error("cancelled by the contract"));
          await assert.rejects(call);
          // The server hears of it on its own schedule (HTTP: the stream closing): ask until it has.
          for (let attempt = 0; ; attempt++) {
            if (Number(textOf(await client.callTool("cancelled"))) >= 1) break;
            assert.ok(attempt < 500, "the server's handler was never aborted");
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }),
    },
    {
      name: "lets the server ask the client (roots/list) in the middle of a request",
      run: () =>
        session(async (client) => {
          assert.deepEqual(JSON.parse(textOf(await client.callTool("roots"))), ROOTS);
        }),
    },
    {
      name: "after close, calls fail at once with a connection error",
      async run() {
        const connection = await open();
        const client = new Client({ name: "contract-client", version: "1.0.0", ...clientOptions });
        try {
          await client.connect(connection.transport);
          await client.close();
          await assert.rejects(client.callTool("echo", {}), (error: unknown) => error instanceof McpError);
        } finally {
          await connection.close?.();
        }
      },
    },
  ];
}
