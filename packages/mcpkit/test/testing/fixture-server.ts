import { createServer, type McpServer } from "../../src/server/index.js";

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
