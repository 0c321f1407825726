import { describe, expect, it } from "vitest";
import { createServer } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";
import { sleep } from "./helpers.js";

describe("list_changed notifications", () => {
  it("tells every connected client when tools, prompts or resources are added, removed, enabled or disabled", async () => {
    const server = createServer({ name: "s", version: "1" });
    const tool = server.tool("a", {}, () => "");
    server.prompt("p", {}, () => "");
    server.resource("test://r", {}, () => "");
    const one = await connectInMemory(server);
    const two = await connectInMemory(server);
    const seen: string[] = [];
    for (const [who, c] of [
      ["one", one.client],
      ["two", two.client],
    ] as const) {
      for (const kind of ["tools", "prompts", "resources"])
        c.on(`notifications/${kind}/list_changed`, () => seen.push(`${who}:${kind}`));
    }
    tool.disable();
    await sleep(5);
    expect(seen.sort()).toEqual(["one:tools", "two:tools"]);
    expect(await one.client.tools()).toEqual([]);

    seen.length = 0;
    tool.enable();
    server.prompt("q", {}, () => "");
    server.resourceTemplate("test://t/{x}", { name: "t" }, () => "");
    await sleep(5);
    expect(seen.sort()).toEqual([
      "one:prompts",
      "one:resources",
      "one:tools",
      "two:prompts",
      "two:resources",
      "two:tools",
    ]);
  });

  it("lets the server announce a change it alone knows of (a resource list backed by files)", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.resourceTemplate("file:///{+path}", { name: "files", list: () => [] }, () => "");
    const { client } = await connectInMemory(server);
    let count = 0;
    client.on("notifications/resources/list_changed", () => count++);
    server.listChanged("resources");
    server.listChanged("resources");
    await sleep(5);
    expect(count).toBe(1);
  });

  it("coalesces changes made in one tick into one notification", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("seed", {}, () => "");
    const { client } = await connectInMemory(server);
    let count = 0;
    client.on("notifications/tools/list_changed", () => count++);
    for (let i = 0; i < 10; i++) server.tool(`t${i}`, {}, () => "");
    await sleep(5);
    expect(count).toBe(1);
  });

  it("refreshes the client's cached lists after list_changed", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("a", {}, () => "");
    const { client } = await connectInMemory(server);
    expect((await client.tools()).map((t) => t.name)).toEqual(["a"]);
    const b = server.tool("b", {}, () => "");
    await sleep(5);
    expect((await client.tools()).map((t) => t.name)).toEqual(["a", "b"]);
    b.remove();
    await sleep(5);
    expect((await client.tools()).map((t) => t.name)).toEqual(["a"]);
    await expect(client.callTool("b")).rejects.toMatchObject({ code: -32602 });
  });

  it("sends nothing to a session that has closed", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("a", {}, () => "");
    const { close } = await connectInMemory(server);
    await close();
    expect(server.sessions.size).toBe(0);
    server.tool("b", {}, () => ""); // must not throw on a closed transport
    await sleep(5);
  });
});
