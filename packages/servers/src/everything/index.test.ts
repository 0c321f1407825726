import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { everythingServer } from "./index.js";

// The factory, in this process: the conformance fixture, with its task bounds typed.

describe("everythingServer", () => {
  it("serves every feature under the fixture names", async () => {
    const everything = everythingServer();
    const { client, close } = await connectInMemory(everything.server);
    try {
      const tools = (await client.tools()).map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(["echo", "slow_compute"]));
      expect((await client.prompts()).length).toBeGreaterThan(0);
      expect(client.serverInfo?.name).toBe("mcpkit-everything");
    } finally {
      await close();
      await everything.close();
    }
  });

  it("bounds the tasks one client makes by maxTasksPerClient, and keeps them maxTaskTtlMs at most", async () => {
    const everything = everythingServer({ maxTasksPerClient: 1, maxTaskTtlMs: 90_000 });
    const { client, close } = await connectInMemory(everything.server, { protocolVersion: "2026-07-28" });
    try {
      const first = await client.callToolAsTask("slow_compute", { seconds: 60, label: "a" });
      expect(first.task?.latest?.ttlMs).toBe(90_000);
      await expect(client.callToolAsTask("slow_compute", { seconds: 60, label: "b" })).rejects.toMatchObject({
        code: -32600,
        data: { reason: "too-many-tasks", limit: 1 },
      });
    } finally {
      await close();
    }
  });

  it("takes the server options only code can give", async () => {
    const everything = everythingServer({ serverOptions: { name: "fixture", instructions: "Test me." } });
    const { client, close } = await connectInMemory(everything.server);
    try {
      expect(client.serverInfo?.name).toBe("fixture");
      expect(client.instructions).toBe("Test me.");
    } finally {
      await close();
    }
  });
});
