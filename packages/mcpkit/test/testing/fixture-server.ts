import { Client } from "../../src/client/index.js";
import { createServer, type McpServer } from "../../src/server/index.js";
import type { LoggedMessage } from "../../src/testing/convert/from-log.js";
import { createLinkedPair } from "../../src/testing/index.js";
import { tapTransport } from "../../src/testing/target/tap.js";

/**
 * A server in this process for the runner's and replay's in-memory tests: one tool per
 * kind of answer (structured, text, an isError result, progress and a log, slow, a
 * question to the client, a timestamp), a prompt, a resource, a completable template.
 */
export function testServer(
  options: {
    sum?: (a: number, b: number) => number;
    slowMs?: number;
    question?: string;
    /** count sends no progress, and logs a second time. */
    quietCount?: boolean;
  } = {},
): McpServer {
  const server = createServer({ name: "fixture", version: "1.0.0" });
  const sum = options.sum ?? ((a, b) => a + b);
  server.tool(
    "add",
    {
      input: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      output: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
    (args) => {
      const value = sum(args.a as number, args.b as number);
      return { structuredContent: { sum: value }, content: [{ type: "text", text: `the sum is ${value}` }] };
    },
  );
  server.tool(
    "greet",
    { input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    (args) => `Hello, ${String(args.name)}!`,
  );
  server.tool("fail", { description: "Always reports an error" }, () => ({
    content: [{ type: "text", text: "the disk is full" }],
    isError: true,
  }));
  server.tool(
    "count",
    { input: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } },
    (args, ctx) => {
      if (!options.quietCount) for (let i = 1; i <= (args.n as number); i++) ctx.progress(i, args.n as number);
      ctx.log("info", { counted: args.n });
      if (options.quietCount) ctx.log("info", "again");
      return `counted to ${String(args.n)}`;
    },
  );
  server.tool("slow", { description: "Takes its time" }, async () => {
    await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 0));
    return "done";
  });
  server.tool(
    "confirm",
    { input: { type: "object", properties: { what: { type: "string" } }, required: ["what"] } },
    async (args, ctx) => {
      const answer = await ctx.elicit({
        message: `${options.question ?? "Confirm"} ${String(args.what)}?`,
        schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      });
      return answer.action === "accept" && answer.content?.ok === true ? "confirmed" : "declined";
    },
  );
  server.tool("stamp", { description: "The time it is" }, () => ({
    content: [{ type: "text", text: "stamped" }],
    structuredContent: { at: new Date().toISOString() },
  }));
  server.prompt("welcome", { args: { name: { required: true } } }, ({ name }) => `Welcome, ${name}!`);
  server.resource("info://about", { name: "about", mimeType: "text/plain" }, () => "About this server.");
  server.resourceTemplate(
    "note://{id}",
    {
      name: "note",
      complete: { id: (v) => ["alpha", "beta", "alpine"].filter((x) => x.startsWith(v)) },
      list: () => [],
    },
    (_uri, { id }) => `note ${String(id)}`,
  );
  return server;
}

/**
 * A client connected to `server` in this process whose every message, both ways, goes into
 * `log`, as a client's protocol log (the inspector's) keeps them; it accepts elicitations.
 */
export async function loggedClient(
  server: McpServer,
  protocolVersion: "2025-11-25" | "2026-07-28",
  name = "recorder",
): Promise<{ client: Client; log: LoggedMessage[] }> {
  const log: LoggedMessage[] = [];
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({
    name,
    version: "1.0.0",
    protocolVersion,
    elicitation: () => ({ action: "accept", content: { ok: true } }),
  });
  await client.connect(
    tapTransport(clientSide, {
      sent: (message) => log.push({ at: Date.now(), dir: "out", message }),
      received: (message) => log.push({ at: Date.now(), dir: "in", message }),
    }),
  );
  return { client, log };
}
