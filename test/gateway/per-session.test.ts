import { connectInMemory } from "mcpkit/testing";
import { describe, expect, it } from "vitest";
import { later, notesEntry, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// A perSession upstream (a server that needs each caller's roots): a process per client
// session, asking that client, at most maxUpstreams at once.

async function clientWithRoots(server: Parameters<typeof connectInMemory>[0], root: string) {
  const connected = await connectInMemory(server, { name: root, roots: [{ uri: `file:///${root}` }] });
  later(connected.close);
  return connected;
}

describe("a perSession upstream", () => {
  it("runs a process per client session, each asking its own client for roots, at most maxUpstreams at once", async () => {
    const path = writeConfig(tempDir(), {
      mcpServers: { files: notesEntry("files", "legacy") },
      gateway: { maxUpstreams: 3, servers: { files: { perSession: true } } },
    });
    const { gateway, log } = await startGateway(path);
    const a = await clientWithRoots(gateway.server, "alpha");
    const b = await clientWithRoots(gateway.server, "beta");
    expect(textOf(await a.client.callTool("files_roots"))).toBe("file:///alpha");
    expect(textOf(await b.client.callTool("files_roots"))).toBe("file:///beta");
    const pidA = textOf(await a.client.callTool("files_pid"));
    const pidB = textOf(await b.client.callTool("files_pid"));
    expect(pidA).not.toBe(pidB);

    // A third session: the process of the one used longest ago (a) makes room; a's session ends.
    const c = await clientWithRoots(gateway.server, "gamma");
    expect(textOf(await c.client.callTool("files_roots"))).toBe("file:///gamma");
    await a.session.closed;
    expect(log.join("\n")).toMatch(/to make room \(at most 2 for sessions at once, maxUpstreams 3/);
    expect(textOf(await b.client.callTool("files_pid"))).toBe(pidB);
  });

  it("tells a session's process when its client's roots change", async () => {
    const path = writeConfig(tempDir(), {
      mcpServers: { files: notesEntry("files", "legacy") },
      gateway: { servers: { files: { perSession: true } } },
    });
    const { gateway } = await startGateway(path);
    const { client } = await clientWithRoots(gateway.server, "alpha");
    expect(textOf(await client.callTool("files_known_roots"))).toBe("file:///alpha");
    await client.setRoots([{ uri: "file:///beta" }]);
    await expect.poll(async () => textOf(await client.callTool("files_known_roots"))).toBe("file:///beta");
  });
});
