import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/index.js";
import { formatSnapshot, snapshot } from "../../src/testing/snapshot/snapshot.js";
import { testServer } from "./fixture-server.js";

// snapshot(server): the surface a client relies on, the same bytes every time.

describe("a snapshot", () => {
  it("holds server info, capabilities and every list with its schemas", async () => {
    const surface = await snapshot(testServer());
    expect(surface).toMatchObject({
      mcpkitSnapshot: 1,
      protocolVersion: "2025-11-25",
      serverInfo: { name: "fixture", version: "1.0.0" },
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
      prompts: [{ name: "welcome", arguments: [{ name: "name", required: true }] }],
      resources: [{ uri: "info://about", name: "about", mimeType: "text/plain" }],
      resourceTemplates: [{ uriTemplate: "note://{id}", name: "note" }],
    });
    const add = surface.tools.find((t) => t.name === "add");
    expect(add?.inputSchema).toMatchObject({ required: ["a", "b"] });
    expect(add?.outputSchema).toMatchObject({ properties: { sum: { type: "number" } } });
  });

  it("sorts keys and lists, so that two snapshots of one server are the same bytes", async () => {
    const make = (order: string[]) => {
      const server = createServer({ name: "s", version: "1" });
      for (const name of order) server.tool(name, { description: name }, () => name);
      return server;
    };
    const [a, b] = [await snapshot(make(["b", "a", "c"])), await snapshot(make(["c", "b", "a"]))];
    expect(a.tools.map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect(formatSnapshot(a)).toBe(formatSnapshot(b));
    const text = formatSnapshot(a);
    expect(text.indexOf('"capabilities"')).toBeLessThan(text.indexOf('"mcpkitSnapshot"'));
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("leaves out what changes by itself: lastModified, timestamps in _meta", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.resource(
      "file:///a",
      {
        name: "a",
        annotations: { lastModified: new Date().toISOString(), priority: 1 },
        _meta: { builtAt: new Date().toISOString(), kept: "yes" },
      },
      () => "a",
    );
    const surface = await snapshot(server);
    expect(surface.resources).toEqual([
      { uri: "file:///a", name: "a", annotations: { priority: 1 }, _meta: { kept: "yes" } },
    ]);
  });

  it("is taken at the revision asked for", async () => {
    expect((await snapshot(testServer(), { protocol: "2026-07-28" })).protocolVersion).toBe("2026-07-28");
    expect((await snapshot(testServer(), { protocol: "2025-06-18" })).protocolVersion).toBe("2025-06-18");
  });
});
