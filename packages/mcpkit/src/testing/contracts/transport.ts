import assert from "node:assert/strict";
import { Client } from "../../client/client.js";
import type { ClientOptions } from "../../client/options.js";
import { McpError } from "../../jsonrpc/errors.js";
import type { CallToolResult } from "../../protocol/types/features.js";
import { McpServer } from "../../server/server.js";
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
  return server;
}

/** A client-side transport reaching `contractServer()`, and how to tear down what serves it. */
export interface ContractConnection {
  transport: Transport;
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
  async function session(run: (client: Client) => Promise<void>): Promise<void> {
    const connection = await open();
    const client = new Client({ name: "contract-client", version: "1.0.0", roots: ROOTS, ...clientOptions });
    try {
      await client.connect(connection.transport);
      await run(client);
    } finally {
      await client.close();
      await connection.close?.();
    }
  }

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
