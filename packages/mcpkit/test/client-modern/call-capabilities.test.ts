import { expect, it } from "vitest";
import { createServer } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";

it("declares, for one 2026-07-28 request, the capabilities given in its options instead of the client's", async () => {
  const server = createServer({ name: "s", version: "1" });
  server.tool("caps", {}, (_a, ctx) => JSON.stringify(ctx.client.capabilities));
  const { client, close } = await connectInMemory(server, {
    protocolVersion: "2026-07-28",
    sampling: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }),
    listRoots: () => [{ uri: "file:///r" }],
  });
  try {
    const own = await client.callTool("caps");
    expect(JSON.parse((own.content[0] as { text: string }).text)).toEqual({ sampling: {}, roots: {} });
    const given = await client.callTool("caps", {}, { capabilities: { elicitation: { form: {} } } });
    expect(JSON.parse((given.content[0] as { text: string }).text)).toEqual({ elicitation: { form: {} } });
  } finally {
    await close();
  }
});
