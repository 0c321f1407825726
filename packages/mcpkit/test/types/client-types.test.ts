import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { CallToolResult, CreateMessageResult } from "../../src/protocol/types/features.js";
import { createServer, structured } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";

// The compiler checks the types (tsc -p tsconfig.test.json, in npm test); vitest runs the
// calls, so what the types promise is also what arrives.

const output = z.object({ sum: z.number() });

function adder() {
  const server = createServer({ name: "adder", version: "1" });
  server.tool("add", { input: z.object({ a: z.number(), b: z.number() }), output }, ({ a, b }) =>
    structured({ sum: a + b }),
  );
  // Declares no output schema, and returns something else than the caller expects.
  server.tool("liar", {}, () => ({ content: [], structuredContent: { sum: "three" } }));
  return server;
}

describe("callTool with the tool's output schema", () => {
  it("types structuredContent by the schema, and checks it", async () => {
    const { client, close } = await connectInMemory(adder());
    const result = await client.callTool("add", { a: 1, b: 2 }, { output });
    expectTypeOf(result.structuredContent).toEqualTypeOf<{ sum: number } | undefined>();
    expect(result.structuredContent?.sum).toBe(3);
    // @ts-expect-error a misspelt field of the structured result
    expect(result.structuredContent?.summ).toBeUndefined();
    await expect(client.callTool("liar", {}, { output })).rejects.toMatchObject({
      name: "ToolOutputError",
      toolName: "liar",
      reason: "schema-mismatch",
    });
    await close();
  });

  it("stays a plain CallToolResult without one", async () => {
    const { client, close } = await connectInMemory(adder());
    const result = await client.callTool("add", { a: 1, b: 2 });
    expectTypeOf(result).toEqualTypeOf<CallToolResult>();
    await close();
  });
});

describe("request<T>", () => {
  it("names the result type without a cast", () => {
    expectTypeOf<ReturnType<typeof requestSampling>>().toEqualTypeOf<Promise<CreateMessageResult>>();
  });
});

const requestSampling = (client: Awaited<ReturnType<typeof connectInMemory>>["client"]) =>
  client.request<CreateMessageResult>("sampling/createMessage", { messages: [], maxTokens: 1 });
