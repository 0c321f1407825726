import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

describe("smoke", () => {
  it("calls a tool in memory", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("echo", { input: z.object({ text: z.string() }) }, ({ text }) => `echo: ${text}`);
    const { client, close } = await connectInMemory(server);
    const result = await client.callTool("echo", { text: "hi" });
    expect(result.content).toEqual([{ type: "text", text: "echo: hi" }]);
    const bad = await client.callTool("echo", { text: 3 });
    expect(bad.isError).toBe(true);
    await close();
  });
});
