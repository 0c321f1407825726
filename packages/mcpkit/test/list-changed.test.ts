import { describe, expect, it } from "vitest";
import { Client } from "../src/client/index.js";
import { createServer } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";
import { createLinkedPair } from "../src/transports/memory/linked-pair.js";
import { nextNotification, recordSentMethods } from "./helpers.js";

// The server sends list_changed in the microtask after a change, and answers in order on a
// connection: once a ping that follows a change is answered, every notification the change
// caused has arrived, so "exactly one" is checked after it.

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
    await Promise.all([one.client.ping(), two.client.ping()]);
    expect(seen.sort()).toEqual(["one:tools", "two:tools"]);
    expect(await one.client.tools()).toEqual([]);

    seen.length = 0;
    tool.enable();
    server.prompt("q", {}, () => "");
    server.resourceTemplate("test://t/{x}", { name: "t" }, () => "");
    await Promise.all([one.client.ping(), two.client.ping()]);
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
    await client.ping();
    expect(count).toBe(1);
  });

  it("coalesces changes made in one tick into one notification", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("seed", {}, () => "");
    const { client } = await connectInMemory(server);
    let count = 0;
    client.on("notifications/tools/list_changed", () => count++);
    for (let i = 0; i < 10; i++) server.tool(`t${i}`, {}, () => "");
    await client.ping();
    expect(count).toBe(1);
  });

  it("refreshes the client's cached lists after list_changed", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("a", {}, () => "");
    const { client } = await connectInMemory(server);
    expect((await client.tools()).map((t) => t.name)).toEqual(["a"]);
    const changed = () => nextNotification(client, "notifications/tools/list_changed");
    let notified = changed();
    const b = server.tool("b", {}, () => "");
    await notified;
    expect((await client.tools()).map((t) => t.name)).toEqual(["a", "b"]);
    notified = changed();
    b.remove();
    await notified;
    expect((await client.tools()).map((t) => t.name)).toEqual(["a"]);
    await expect(client.callTool("b")).rejects.toMatchObject({ code: -32602 });
  });

  it("sends nothing to a session that has closed", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool("a", {}, () => "");
    const [clientSide, serverSide] = createLinkedPair();
    const sent = recordSentMethods(serverSide);
    await server.connect(serverSide);
    const gone = new Client({ name: "gone", version: "1" });
    await gone.connect(clientSide);
    await gone.close();
    const open = await connectInMemory(server);
    expect(server.sessions.size).toBe(1);
    const sentBefore = [...sent];
    const changed = nextNotification(open.client, "notifications/tools/list_changed");
    server.tool("b", {}, () => ""); // must not throw on a closed transport
    // Every session hears of a change in the same microtask: once the open one has, the
    // closed one would have too.
    await changed;
    expect(sent).toEqual(sentBefore);
    expect(sent).not.toContain("notifications/tools/list_changed");
  });
});
