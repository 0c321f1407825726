import { writeFileSync } from "node:fs";
import type { ConfigDiff } from "@mcpkit/servers/gateway";
import { watchConfig } from "@mcpkit/servers/gateway";
import type { Client } from "mcpkit/client";
import { describe, expect, it } from "vitest";
import { clientOf, ERAS, later, notesEntry, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// The configuration file edited while the gateway serves: upstreams added, removed and
// changed without a restart, clients told (list_changed), calls in flight finishing, and an
// edit that does not check refused with its line and column while the last good one serves.

/** The gateway of `config`, watching its file; each reload or refusal resolves the next `event()`. */
async function watched(config: object) {
  const path = writeConfig(tempDir(), config);
  const { gateway, log } = await startGateway(path);
  const events: ({ diff: ConfigDiff } | { refused: Error })[] = [];
  let wake: (() => void) | undefined;
  const watch = watchConfig(gateway, {
    settleMs: 20,
    onReload: (diff) => {
      events.push({ diff });
      wake?.();
    },
    onRefused: (error) => {
      events.push({ refused: error });
      wake?.();
    },
  });
  later(async () => watch.close());
  /** Writes the file anew and resolves with what the gateway did about it. */
  const edit = async (next: object | string) => {
    const seen = events.length;
    const arrived = new Promise<void>((resolve) => {
      wake = resolve;
    });
    writeFileSync(path, typeof next === "string" ? next : JSON.stringify(next, null, 2));
    while (events.length === seen) await arrived;
    return events[seen] as { diff: ConfigDiff } & { refused: Error };
  };
  return { gateway, log, edit, path };
}

/** The list_changed notifications a client gets, and a wait for the next. */
async function listening(client: Client) {
  const changes: string[] = [];
  let wake: (() => void) | undefined;
  await client.listen({ toolsListChanged: true }, (n) => {
    changes.push(n.method);
    wake?.();
  });
  return {
    changes,
    next: async () => {
      const seen = changes.length;
      while (changes.length === seen)
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
    },
  };
}

for (const { era, revision } of ERAS) {
  describe(`hot reload, seen by a ${era} client`, () => {
    it("adds, changes and removes upstreams without a restart, and tells clients", async () => {
      const base = { mcpServers: { notes: notesEntry("notes") } };
      const { gateway, edit } = await watched(base);
      const client = await clientOf(gateway, revision);
      expect((await client.tools()).map((t) => t.name)).not.toContain("more_list_notes");
      const changes = await listening(client);

      const told = changes.next();
      const added = await edit({ mcpServers: { ...base.mcpServers, more: notesEntry("more") } });
      expect(added.diff.added.map((u) => u.name)).toEqual(["more"]);
      await told;
      expect(textOf(await client.callTool("more_list_notes"))).toBe("first note");

      const renamed = changes.next();
      const changed = await edit({
        mcpServers: { ...base.mcpServers, more: notesEntry("more") },
        gateway: { servers: { more: { tools: { allow: ["list_notes"], rename: { list_notes: "all_notes" } } } } },
      });
      expect(changed.diff.reselected.map((u) => u.name)).toEqual(["more"]);
      await renamed;
      const names = (await client.tools()).map((t) => t.name);
      expect(names).toContain("all_notes");
      expect(names.filter((n) => n.startsWith("more_"))).toEqual([]);

      const gone = changes.next();
      const removed = await edit(base);
      expect(removed.diff.removed.map((u) => u.name)).toEqual(["more"]);
      await gone;
      expect((await client.tools()).map((t) => t.name)).not.toContain("all_notes");
      await expect(client.callTool("all_notes")).rejects.toMatchObject({ code: -32602 });
      expect(gateway.health().upstreams.map((u) => u.name)).toEqual(["notes"]);
    }, 30_000);
  });
}

describe("hot reload", () => {
  it("refuses an edit that does not check, with its line and column, and the last good configuration serves", async () => {
    const { gateway, edit, log } = await watched({ mcpServers: { notes: notesEntry("notes") } });
    const client = await clientOf(gateway);
    expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");
    const refused = await edit(`{
  "mcpServers": { "notes": ${JSON.stringify(notesEntry("notes"))} },
  "gateway": { "separator": "/" }
}`);
    expect(refused.refused.message).toMatch(/gateway\.mcp\.json:3:29: gateway\.separator: must be one to three/);
    const broken = await edit(`{ "mcpServers": { "notes": ${JSON.stringify(notesEntry("notes"))}, } ,, }`);
    expect(broken.refused.message).toMatch(/gateway\.mcp\.json:1:\d+: /);
    expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note");
    expect(log.join("\n")).not.toMatch(/stopped/);
  });

  it("restarts an upstream whose command changed, the call in flight on the old one finishing first", async () => {
    const dir = tempDir();
    const { gateway, edit, log } = await watched({ mcpServers: { notes: notesEntry("notes") } });
    const client = await clientOf(gateway);
    const before = Number(textOf(await client.callTool("notes_pid")));
    const release = `${dir}/release`;
    const inFlight = client.callTool("notes_block", { file: release });
    await expect.poll(() => log.includes("[notes] block called")).toBe(true);

    const changed = await edit({ mcpServers: { notes: { ...notesEntry("notes"), env: { MODE: "new" } } } });
    expect(changed.diff.restarted.map((u) => u.name)).toEqual(["notes"]);
    // New calls go to the new process, while the old one finishes its call.
    expect(textOf(await client.callTool("notes_env", { name: "MODE" }))).toBe("new");
    expect(Number(textOf(await client.callTool("notes_pid")))).not.toBe(before);
    writeFileSync(release, "");
    expect(textOf(await inFlight)).toBe("released");
  }, 30_000);
});

describe("hot reload of virtual servers", () => {
  it("keeps the sessions of a virtual server the edit leaves alone, and tells those of one it changes", async () => {
    const servers = { mcpServers: { notes: notesEntry("notes"), more: notesEntry("more") } };
    const { gateway, edit } = await watched({
      ...servers,
      gateway: { virtualServers: { "/readers": { tools: ["notes_list_notes"] } } },
    });
    const readers = await clientOf(gateway, undefined, "/readers");
    expect((await readers.tools()).map((t) => t.name)).toEqual(["notes_list_notes"]);
    const changes = await listening(readers);

    // Another virtual server added: the one serving keeps its server, and its client's session.
    const server = gateway.virtualServers().get("/readers");
    const added = await edit({
      ...servers,
      gateway: {
        virtualServers: { "/readers": { tools: ["notes_list_notes"] }, "/writers": { tools: ["*_add_note"] } },
      },
    });
    expect(added.diff.virtualServers).toBe(true);
    expect(gateway.virtualServers().get("/readers")).toBe(server);
    expect(textOf(await readers.callTool("notes_list_notes"))).toBe("first note");
    const writers = await clientOf(gateway, undefined, "/writers");
    expect((await writers.tools()).map((t) => t.name)).toEqual(["more_add_note", "notes_add_note"]);

    // Its own tools changed: the same session is told, and sees them.
    const told = changes.next();
    await edit({
      ...servers,
      gateway: {
        virtualServers: { "/readers": { tools: ["*_list_notes"] }, "/writers": { tools: ["*_add_note"] } },
      },
    });
    await told;
    expect(gateway.virtualServers().get("/readers")).toBe(server);
    expect((await readers.tools()).map((t) => t.name)).toEqual(["more_list_notes", "notes_list_notes"]);
    expect(textOf(await readers.callTool("more_list_notes"))).toBe("first note");
  }, 30_000);
});
