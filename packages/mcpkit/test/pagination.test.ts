import { describe, expect, it } from "vitest";
import { createServer } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

function big(pageSize: number) {
  const server = createServer({ name: "s", version: "1", pageSize });
  for (let i = 0; i < 7; i++) {
    const n = String(i).padStart(2, "0");
    server.tool(`tool${n}`, {}, () => "");
    server.prompt(`prompt${n}`, {}, () => "");
    server.resource(`test://r/${n}`, {}, () => "");
    server.resourceTemplate(`test://t${n}/{x}`, { name: `t${n}` }, () => "");
  }
  return server;
}

describe("server/utilities/pagination", () => {
  it("pages every list with the configured size and opaque cursors", async () => {
    const { client } = await connectInMemory(big(3));
    const first = await client.listTools();
    expect(first.tools.map((t) => t.name)).toEqual(["tool00", "tool01", "tool02"]);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.nextCursor).not.toContain("tool");
    const second = await client.listTools(first.nextCursor);
    expect(second.tools.map((t) => t.name)).toEqual(["tool03", "tool04", "tool05"]);
    const third = await client.listTools(second.nextCursor);
    expect(third.tools.map((t) => t.name)).toEqual(["tool06"]);
    expect(third.nextCursor).toBeUndefined();

    expect((await client.listPrompts()).prompts).toHaveLength(3);
    expect((await client.listResources()).resources).toHaveLength(3);
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(3);
    expect(await client.prompts()).toHaveLength(7);
    expect(await client.resources()).toHaveLength(7);
    expect(await client.resourceTemplates()).toHaveLength(7);
    expect(await client.tools()).toHaveLength(7);
  });

  it("keeps cursors valid when items are added or removed between pages", async () => {
    const server = big(3);
    const { client } = await connectInMemory(server);
    const first = await client.listTools();
    server.tool("tool000", {}, () => ""); // sorts before the cursor: not repeated
    const second = await client.listTools(first.nextCursor);
    expect(second.tools.map((t) => t.name)).toEqual(["tool03", "tool04", "tool05"]);
  });

  it("answers an invalid cursor with -32602", async () => {
    const { client } = await connectInMemory(big(3));
    await expect(client.listTools("not a cursor!")).rejects.toMatchObject({ code: -32602 });
    await expect(client.listTools(Buffer.from("tool01").toString("base64url"))).rejects.toMatchObject({ code: -32602 });
    await expect(client.request("prompts/list", { cursor: 5 })).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses a page size below one", () => {
    expect(() => createServer({ name: "s", version: "1", pageSize: 0 })).toThrow(/pageSize/);
  });
});
