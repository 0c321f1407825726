import { describe, expect, it } from "vitest";
import { clientOf, ERAS, notesEntry, startGateway, tempDir, textOf, writeConfig } from "./helpers.js";

// One gateway in front of two real stdio servers (child processes): one speaking every
// revision, one only 2024-11-05. Its clients, in both eras, see one surface.

for (const { era, revision } of ERAS) {
  describe(`the gateway's surface, seen by a ${era} client`, () => {
    it("serves each upstream's tools, prompts and resources under its name, and calls through", async () => {
      const path = writeConfig(tempDir(), {
        mcpServers: { notes: notesEntry("notes"), "old notes": notesEntry("old", "legacy") },
      });
      const { gateway } = await startGateway(path);
      // Nothing started before a client came.
      expect(gateway.health().upstreams.map((u) => u.state)).toEqual(["idle", "idle"]);
      const client = await clientOf(gateway, revision);
      const names = (await client.tools()).map((t) => t.name);
      expect(names).toContain("notes_add_note");
      expect(names).toContain("old-notes_add_note");
      // Every tool of each, and nothing else.
      const ofNotes = names.filter((n) => n.startsWith("notes_")).map((n) => n.slice("notes_".length));
      const ofOld = names.filter((n) => n.startsWith("old-notes_")).map((n) => n.slice("old-notes_".length));
      expect(ofNotes).toEqual(ofOld);
      expect(ofNotes).toEqual(expect.arrayContaining(["add_note", "list_notes", "echo", "pid", "hang"]));
      expect(names).toHaveLength(ofNotes.length * 2);
      expect(gateway.health().upstreams.map((u) => u.state)).toEqual(["ready", "ready"]);

      expect(textOf(await client.callTool("notes_add_note", { text: "buy milk" }))).toBe("note 2 added");
      expect(textOf(await client.callTool("old-notes_list_notes"))).toBe("first note");
      expect(textOf(await client.callTool("notes_list_notes"))).toBe("first note\nbuy milk");

      expect((await client.prompts()).map((p) => p.name)).toEqual(["notes_summary", "old-notes_summary"]);
      const prompt = await client.getPrompt("old-notes_summary", { topic: "work" });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Summarize the work notes" });
      const completion = await client.complete({
        ref: { type: "ref/prompt", name: "old-notes_summary" },
        argument: { name: "topic", value: "h" },
      });
      expect(completion.completion.values).toEqual(["home"]);

      expect((await client.resources()).map((r) => r.uri).sort()).toEqual([
        "notes://notes/all",
        "notes://old-notes/all",
      ]);
      expect((await client.readResource("notes://notes/all")).contents).toEqual([
        { uri: "notes://notes/all", mimeType: "text/plain", text: "first note\nbuy milk" },
      ]);
      expect((await client.readResource("notes://old-notes/note/1")).contents).toEqual([
        { uri: "notes://old-notes/note/1", text: "first note" },
      ]);
    });

    it("serves what the configuration selects, under the names and descriptions it gives", async () => {
      const path = writeConfig(tempDir(), {
        mcpServers: { notes: notesEntry("notes") },
        gateway: {
          separator: ".",
          servers: {
            notes: {
              tools: {
                allow: ["*_note*", "echo"],
                deny: ["add_*"],
                rename: { echo: "say" },
                describe: { say: "x", list_notes: "All the notes" },
              },
              prompts: { deny: ["*"] },
            },
          },
        },
      });
      const { gateway } = await startGateway(path);
      const client = await clientOf(gateway, revision);
      expect((await client.tools()).map((t) => [t.name, t.description])).toEqual([
        ["notes.list_notes", "All the notes"],
        ["say", "Echoes its arguments"],
      ]);
      expect(textOf(await client.callTool("say", { a: 1 }))).toBe('{"a":1}');
      await expect(client.callTool("notes.add_note", { text: "x" })).rejects.toMatchObject({ code: -32602 });
      await expect(client.callTool("notes.echo", {})).rejects.toMatchObject({ code: -32602 });
      expect(await client.prompts()).toEqual([]);
    });

    it("serves a virtual server: a path showing the tools it lists", async () => {
      const path = writeConfig(tempDir(), {
        mcpServers: { notes: notesEntry("notes"), other: notesEntry("other") },
        gateway: { virtualServers: { "/triage": { tools: ["notes_list_notes", "other_*_note*"] } } },
      });
      const { gateway } = await startGateway(path);
      const client = await clientOf(gateway, revision, "/triage");
      expect((await client.tools()).map((t) => t.name)).toEqual([
        "notes_list_notes",
        "other_add_note",
        "other_list_notes",
      ]);
      expect(textOf(await client.callTool("other_add_note", { text: "t" }))).toBe("note 2 added");
      await expect(client.callTool("notes_add_note", { text: "x" })).rejects.toMatchObject({ code: -32602 });
      expect(await client.resources()).toEqual([]);
      await expect(client.readResource("notes://notes/all")).rejects.toThrow(/not found/i);
    });
  });
}
