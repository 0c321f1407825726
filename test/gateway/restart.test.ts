import type { Client } from "mcpkit/client";
import { describe, expect, it } from "vitest";
import { clientOf, notesEntry, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// An upstream killed mid-call: its caller is told why, the other upstream answers all the
// while, and the dead one is started again (with backoff) and serves the next call.

const waitUntil = async (probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("an upstream that dies", () => {
  it("tells its caller why, leaves the other upstream alone, and is started again", async () => {
    const path = writeConfig(tempDir(), { mcpServers: { notes: notesEntry("notes"), other: notesEntry("other") } });
    const { gateway, log } = await startGateway(path);
    const client: Client = await clientOf(gateway);
    const pid = Number(textOf(await client.callTool("notes_pid")));

    const hanging = client.callTool("notes_hang").catch((error: unknown) => error);
    // The call is in flight upstream once the server says so on its stderr (the gateway's log).
    await waitUntil(() => log.includes("[notes] hang called"), "the call to reach the upstream");
    process.kill(pid, "SIGKILL");
    const failure = (await hanging) as { code?: number; message?: string };
    expect(failure.message).toMatch(
      /The "notes" server stopped \(.*killed by SIGKILL.*\); the gateway is starting it again/,
    );
    expect(failure.code).toBe(-32000);

    // The other upstream answers while notes restarts.
    expect(textOf(await client.callTool("other_list_notes"))).toBe("first note");
    const health = gateway.health().upstreams.find((u) => u.name === "notes");
    expect(health?.lastError).toMatch(/killed by SIGKILL/);
    expect(log.join("\n")).toMatch(/the "notes" server stopped: .*SIGKILL.*; restarting it/);

    await waitUntil(() => gateway.health().upstreams[0]?.state === "ready", "notes started again");
    expect(gateway.health().upstreams[0]).toMatchObject({ state: "ready", restarts: 1 });
    const newPid = Number(textOf(await client.callTool("notes_pid")));
    expect(newPid).not.toBe(pid);
    expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");
  }, 30_000);
});
