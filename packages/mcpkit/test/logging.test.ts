import { describe, expect, it } from "vitest";
import { createServer } from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";
import { nextNotification } from "./helpers.js";

function chatty() {
  const server = createServer({ name: "s", version: "1" });
  server.tool("speak", {}, (_a, ctx) => {
    for (const level of ["debug", "info", "warning", "error", "emergency"] as const)
      ctx.log(level, { level }, "speaker");
    return "done";
  });
  return server;
}

describe("server/utilities/logging", () => {
  it("filters notifications/message per connection by the level each client set", async () => {
    const server = chatty();
    const a = await connectInMemory(server);
    const b = await connectInMemory(server);
    const levelsA: string[] = [];
    const levelsB: string[] = [];
    a.client.on("notifications/message", (p) => levelsA.push(p.level as string));
    b.client.on("notifications/message", (p) => levelsB.push(p.level as string));
    await a.client.setLogLevel("warning");
    await a.client.callTool("speak");
    await b.client.callTool("speak"); // a tool's log messages arrive before its result
    expect(levelsA).toEqual(["warning", "error", "emergency"]);
    expect(levelsB).toEqual(["debug", "info", "warning", "error", "emergency"]);
  });

  it("sends logger and data as given, before the result", async () => {
    const { client } = await connectInMemory(chatty());
    const order: string[] = [];
    client.on("notifications/message", (p) => order.push(`${p.logger}:${JSON.stringify(p.data)}`));
    await client.setLogLevel("error");
    await client.callTool("speak").then(() => order.push("result"));
    expect(order).toEqual(['speaker:{"level":"error"}', 'speaker:{"level":"emergency"}', "result"]);
  });

  it("refuses an unknown level with -32602", async () => {
    const { client } = await connectInMemory(chatty());
    await expect(client.setLogLevel("loud" as never)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("debug, info, notice, warning, error, critical, alert, emergency"),
    });
  });

  it("logs from the session outside any request", async () => {
    const server = chatty();
    const { client, session } = await connectInMemory(server);
    const seen: unknown[] = [];
    client.on("notifications/message", (p) => seen.push(p));
    const logged = nextNotification(client, "notifications/message");
    session.log("notice", "server started", "boot");
    await logged;
    await client.ping(); // and nothing else came before the answer to a later request
    expect(seen).toEqual([{ level: "notice", logger: "boot", data: "server started" }]);
  });
});
