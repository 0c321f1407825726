import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "mcpkit/client";
import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { later, notesEntry, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// Where an upstream's log messages go: those of a call to its caller, never to another
// client; a perSession upstream's sent outside any call to its own session's client only.
// The upstream speaks 2024-11-05 over stdio, one pipe in order: its "later" comes before
// the resource update it sends next, so a client told of the update was told of "later"
// first if at all. A shared handshake-era upstream's log names no call: it goes to the call
// in progress, if one runs or all that run are one session's, else to nobody (docs/gateway.md).

async function listener(server: Parameters<typeof connectInMemory>[0]) {
  const connected = await connectInMemory(server);
  later(connected.close);
  const client: Client = connected.client;
  const got: string[] = [];
  client.on("notifications/message", (params) => got.push(String(params.data)));
  client.on("notifications/resources/updated", () => got.push("(updated)"));
  await client.setLogLevel("debug");
  return { client, got };
}

for (const perSession of [false, true])
  describe(`a ${perSession ? "perSession" : "shared"} upstream's log messages`, () => {
    it(`reach the caller of the call they belong to${perSession ? ", and its session's client outside calls" : ""}, not a client that called nothing`, async () => {
      const path = writeConfig(tempDir(), {
        mcpServers: { notes: notesEntry("notes", "legacy") },
        gateway: { servers: { notes: { perSession } } },
      });
      const { gateway } = await startGateway(path);
      const ada = await listener(gateway.server);
      const bob = await listener(gateway.server);
      await ada.client.subscribe("notes://notes/all");
      await bob.client.subscribe("notes://notes/all");

      await ada.client.callTool("notes_log_now");
      expect(ada.got).toEqual(["now"]);
      await ada.client.callTool("notes_log_later");
      await expect.poll(() => ada.got).toContain("(updated)");
      expect(ada.got).toEqual(["now", "later", "(updated)"]);
      // Bob called nothing: of Ada's upstream he hears at most the update of a resource he watches.
      if (!perSession) await expect.poll(() => bob.got).toContain("(updated)");
      expect(bob.got).toEqual(perSession ? [] : ["(updated)"]);
    });
  });

describe("a shared upstream's log message sent outside any call", () => {
  it("reaches no one while calls of several people are in progress", async () => {
    const dir = tempDir();
    const path = writeConfig(dir, { mcpServers: { notes: notesEntry("notes", "legacy") } });
    const { gateway, log } = await startGateway(path);
    const [ada, bob, carol] = await Promise.all([
      listener(gateway.server),
      listener(gateway.server),
      listener(gateway.server),
    ]);
    for (const { client } of [ada, bob, carol]) await client.subscribe("notes://notes/all");
    const release = join(dir, "release");
    const blocked = [ada, bob].map(({ client }) => client.callTool("notes_block", { file: release }));
    await expect.poll(() => log.filter((line) => line === "[notes] block called")).toHaveLength(2);

    // Carol's call logs "later" once answered: it names no call, and Ada's and Bob's run.
    await carol.client.callTool("notes_log_later");
    for (const { got } of [ada, bob, carol]) await expect.poll(() => got).toContain("(updated)");
    expect([ada.got, bob.got, carol.got]).toEqual([["(updated)"], ["(updated)"], ["(updated)"]]);
    writeFileSync(release, "");
    expect((await Promise.all(blocked)).map(textOf)).toEqual(["released", "released"]);
  });
});
