import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "mcpkit/client";
import { createStreamableHttpHandler, listen } from "mcpkit/http";
import { createServer } from "mcpkit/server";
import { describe, expect, it } from "vitest";
import { clientOf, later, notesEntry, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// An upstream killed mid-call: its caller is told why, the other upstream answers all the
// while, and the dead one is started again (with backoff) and serves the next call. One
// that cannot start again, and an HTTP one that cannot be reached: callers told which, and why.

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

describe("an upstream that cannot start again", () => {
  it("tells each caller why while it is down, and serves again once it starts", async () => {
    const dir = tempDir();
    const down = join(dir, "down");
    const path = writeConfig(dir, { mcpServers: { notes: { ...notesEntry("notes"), env: { NOTES_DOWN: down } } } });
    const { gateway, log } = await startGateway(path);
    const client: Client = await clientOf(gateway);
    const pid = Number(textOf(await client.callTool("notes_pid")));
    writeFileSync(down, "");
    process.kill(pid, "SIGKILL");
    await waitUntil(() => log.includes("[notes] notes server refuses to start"), "a start that fails");
    await waitUntil(() => /could not start/.test(gateway.health().upstreams[0]?.lastError ?? ""), "its reason");
    // Its tools stay listed; a call says why it cannot be served, in the gateway's words once.
    const failure = await client.callTool("notes_list_notes").catch((error: unknown) => error as Error);
    expect((failure as Error).message).toMatch(
      /^The "notes" server could not start \(.*exited with code 1.*\); the gateway is starting it again: try again shortly$/,
    );
    rmSync(down);
    await waitUntil(() => gateway.health().upstreams[0]?.state === "ready", "notes started again", 20_000);
    expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");
  }, 30_000);
});

describe("an HTTP upstream that cannot be reached", () => {
  it("tells its callers which server, /healthz says why, and it serves again once it is back", async () => {
    const server = createServer({ name: "tracker", version: "1" });
    server.tool("whoami", {}, () => "tracker");
    const handler = createStreamableHttpHandler(server);
    let listening = await listen(handler, { port: 0, host: "127.0.0.1" });
    const port = Number(listening.url.port);
    later(async () => {
      await listening.close();
      await handler.close();
    });
    const path = writeConfig(tempDir(), { mcpServers: { tracker: { url: new URL("/mcp", listening.url).href } } });
    const { gateway, log } = await startGateway(path);
    const client: Client = await clientOf(gateway);
    expect(textOf(await client.callTool("tracker_whoami"))).toBe("tracker");

    await listening.close();
    await expect(client.callTool("tracker_whoami")).rejects.toThrow(/^The "tracker" server could not be reached$/);
    await expect(client.callTool("tracker_whoami")).rejects.toThrow(/^The "tracker" server could not be reached$/);
    expect(gateway.health().upstreams[0]).toMatchObject({
      state: "ready",
      lastError: 'The "tracker" server could not be reached',
    });
    expect(log.filter((line) => line.includes("could not be reached"))).toHaveLength(1);

    listening = await listen(handler, { port, host: "127.0.0.1" });
    expect(textOf(await client.callTool("tracker_whoami"))).toBe("tracker");
  });
});
