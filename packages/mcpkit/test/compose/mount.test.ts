import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Revision } from "../../src/protocol/versions.js";
import { namespace } from "../../src/server/compose/mount-names.js";
import { createServer } from "../../src/server/index.js";
import { connectInMemory } from "../../src/testing/index.js";

function weatherServer() {
  const server = createServer({ name: "weather", version: "1" });
  const forecast = server.tool(
    "forecast",
    { input: z.object({ city: z.string() }), output: z.object({ city: z.string(), sky: z.string() }) },
    ({ city }, ctx) => ({ structuredContent: { city, sky: ctx.method === "tools/call" ? "clear" : "?" } }),
  );
  server.resource("weather://stations", { name: "stations", mimeType: "text/plain" }, () => "north, south");
  server.resource("urn:weather:legend", { name: "legend" }, (uri) => ({ uri, text: "legend" }));
  server.resourceTemplate(
    "weather://cities/{city}",
    {
      name: "city",
      complete: { city: (v) => ["Oslo", "Osaka", "Paris"].filter((c) => c.startsWith(v)) },
      list: () => [{ uri: "weather://cities/Oslo", name: "Oslo" }],
    },
    (uri, { city }) => ({ contents: [{ uri, text: `city ${String(city)}` }] }),
  );
  server.prompt("brief", { args: { city: { required: true } }, complete: { city: () => ["Oslo"] } }, ({ city }) => {
    return `Brief for ${city}`;
  });
  return { server, forecast };
}

const ERAS: { era: string; revision: Revision | undefined }[] = [
  { era: "legacy (2025-11-25)", revision: undefined },
  { era: "modern (2026-07-28)", revision: "2026-07-28" },
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("the namespace of a mount", () => {
  it("prefixes names and URIs reversibly", () => {
    const ns = namespace("wx");
    expect(ns.name("forecast")).toBe("wx_forecast");
    expect(ns.innerName("wx_forecast")).toBe("forecast");
    expect(ns.innerName("other_forecast")).toBeUndefined();
    for (const [inner, outer] of [
      ["weather://cities/Oslo", "weather://wx/cities/Oslo"],
      ["file:///etc/hosts", "file://wx//etc/hosts"],
      ["urn:weather:legend", "wx+urn:weather:legend"],
      ["wx+web://a/b", "wx+web://wx/a/b"],
    ] as const) {
      expect(ns.uri(inner)).toBe(outer);
      expect(ns.innerUri(outer)).toBe(inner);
    }
    expect(ns.innerUri("weather://elsewhere/x")).toBeUndefined();
  });

  it("keeps names and URIs as they are under the empty prefix (a mount at the root)", () => {
    const root = namespace("");
    expect(root.name("forecast")).toBe("forecast");
    expect(root.innerName("forecast")).toBe("forecast");
    expect(root.uri("urn:weather:legend")).toBe("urn:weather:legend");
    expect(root.innerUri("weather://cities/Oslo")).toBe("weather://cities/Oslo");
  });

  it("refuses a prefix that would not make valid names", () => {
    expect(() => namespace("a b")).toThrow(/must start with a letter or digit/);
    expect(() => namespace("a/b")).toThrow(TypeError);
    expect(() => namespace("_a")).toThrow(TypeError);
  });

  it(`takes a prefix with "_" and another separator, and writes the "_" as "-" where a URI scheme would hold it`, () => {
    const ns = namespace("my_db", ".");
    expect(ns.name("query")).toBe("my_db.query");
    expect(ns.innerName("my_db.query")).toBe("query");
    expect(ns.uri("db://tables/a")).toBe("db://my_db/tables/a");
    expect(ns.innerUri("db://my_db/tables/a")).toBe("db://tables/a");
    expect(ns.uri("urn:db:a")).toBe("my-db+urn:db:a");
    expect(ns.innerUri("my-db+urn:db:a")).toBe("urn:db:a");
  });
});

for (const { era, revision } of ERAS) {
  describe(`server.mount, seen by a ${era} client`, () => {
    async function mounted() {
      const { server: child, forecast } = weatherServer();
      const errors: unknown[] = [];
      const parent = createServer({ name: "hub", version: "1", onError: (e) => errors.push(e) });
      parent.tool("own", {}, () => "mine");
      const mount = parent.mount("wx", child);
      const connected = await connectInMemory(parent, revision ? { protocolVersion: revision } : {});
      closers.push(connected.close);
      return { parent, child, forecast, mount, client: connected.client, errors };
    }

    it("serves the mounted server's tools, prompts, resources and templates under the prefix", async () => {
      const { client } = await mounted();
      expect((await client.tools()).map((t) => t.name)).toEqual(["own", "wx_forecast"]);
      const called = await client.callTool("wx_forecast", { city: "Oslo" });
      expect(called.structuredContent).toEqual({ city: "Oslo", sky: "clear" });
      // The mounted server's validation still applies.
      const invalid = await client.callTool("wx_forecast", { city: 3 }).catch((e: unknown) => e);
      expect(JSON.stringify(invalid)).toMatch(/Invalid arguments for tool/);

      expect((await client.resources()).map((r) => r.uri)).toEqual([
        "weather://wx/stations",
        "wx+urn:weather:legend",
        "weather://wx/cities/Oslo",
      ]);
      expect((await client.readResource("weather://wx/stations")).contents).toEqual([
        { uri: "weather://wx/stations", mimeType: "text/plain", text: "north, south" },
      ]);
      expect((await client.readResource("wx+urn:weather:legend")).contents).toEqual([
        { uri: "wx+urn:weather:legend", text: "legend" },
      ]);
      expect((await client.resourceTemplates()).map((t) => t.uriTemplate)).toEqual(["weather://wx/cities/{city}"]);
      expect((await client.readResource("weather://wx/cities/Paris")).contents).toEqual([
        { uri: "weather://wx/cities/Paris", text: "city Paris" },
      ]);
      await expect(client.readResource("weather://cities/Paris")).rejects.toThrow(/not found/i);

      const prompt = await client.getPrompt("wx_brief", { city: "Oslo" });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Brief for Oslo" });
      const byTemplate = await client.complete({
        ref: { type: "ref/resource", uri: "weather://wx/cities/{city}" },
        argument: { name: "city", value: "O" },
      });
      expect(byTemplate.completion.values).toEqual(["Oslo", "Osaka"]);
      await expect(client.callTool("forecast", { city: "Oslo" })).rejects.toMatchObject({ code: -32602 });
    });

    it("mirrors the mounted server's changes and passes its resource updates on", async () => {
      const { child, forecast, client } = await mounted();
      const changes: string[] = [];
      const updates: unknown[] = [];
      await client.listen({ toolsListChanged: true, resourcesListChanged: true }, (n) => changes.push(n.method));
      client.on("notifications/resources/updated", (params) => updates.push(params.uri));

      child.tool("alerts", {}, () => "none");
      await expect.poll(() => changes).toContain("notifications/tools/list_changed");
      expect(await client.callTool("wx_alerts")).toMatchObject({ content: [{ text: "none" }] });

      changes.length = 0;
      forecast.disable();
      await expect.poll(() => changes).toContain("notifications/tools/list_changed");
      expect((await client.tools()).map((t) => t.name)).toEqual(["own", "wx_alerts"]);
      await expect(client.callTool("wx_forecast", { city: "Oslo" })).rejects.toMatchObject({ code: -32602 });

      await client.subscribe("weather://wx/stations");
      child.resourceUpdated("weather://stations");
      await expect.poll(() => updates).toEqual(["weather://wx/stations"]);
    });

    it("leaves the mounting server's own definitions alone, and unmounts cleanly", async () => {
      const { parent, client, mount, errors } = await mounted();
      // A name the parent already holds is reported, and the parent's own entry kept.
      const other = createServer({ name: "other", version: "1" });
      other.tool("forecast", {}, () => "other");
      parent.tool("wx2_forecast", {}, () => "parent's own");
      parent.mount("wx2", other);
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toMatch(/wx2_forecast.*already registered/);
      expect(await client.callTool("wx2_forecast")).toMatchObject({ content: [{ text: "parent's own" }] });

      const changes: string[] = [];
      await client.listen({ toolsListChanged: true }, (n) => changes.push(n.method));
      mount.unmount();
      await expect.poll(() => changes).toContain("notifications/tools/list_changed");
      expect((await client.tools()).map((t) => t.name)).toEqual(["own", "wx2_forecast"]);
      const left = parent.definitions();
      expect(left.resources.length + left.resourceTemplates.length + left.prompts.length).toBe(0);
      expect(() => parent.mount("self", parent)).toThrow(/into itself/);
    });

    it("mounts at the root, and a new version mounted in place of the old is one list_changed per list", async () => {
      const parent = createServer({ name: "dev", version: "1" });
      const first = weatherServer().server;
      let mount = parent.mount("", first);
      const connected = await connectInMemory(parent, revision ? { protocolVersion: revision } : {});
      closers.push(connected.close);
      const { client } = connected;
      expect((await client.tools()).map((t) => t.name)).toEqual(["forecast"]);
      expect((await client.resources()).map((r) => r.uri)).toContain("weather://stations");

      const changes: string[] = [];
      await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, (n) =>
        changes.push(n.method),
      );
      const second = weatherServer().server;
      second.tool("alerts", {}, () => "none");
      mount.unmount();
      mount = parent.mount("", second);
      await expect.poll(() => changes.length).toBe(3);
      expect([...changes].sort()).toEqual([
        "notifications/prompts/list_changed",
        "notifications/resources/list_changed",
        "notifications/tools/list_changed",
      ]);
      expect((await client.tools()).map((t) => t.name)).toEqual(["alerts", "forecast"]);
      expect(await client.callTool("alerts")).toMatchObject({ content: [{ text: "none" }] });
    });
  });
}

for (const { era, revision } of ERAS) {
  describe(`server.mount with options, seen by a ${era} client`, () => {
    async function connect(parent: ReturnType<typeof createServer>, name = "test-client") {
      const connected = await connectInMemory(parent, { name, ...(revision && { protocolVersion: revision }) });
      closers.push(connected.close);
      return connected.client;
    }

    it("joins prefix and name with another separator, and refuses one that would not make a tool name", async () => {
      const parent = createServer({ name: "hub", version: "1" });
      parent.mount("wx", weatherServer().server, { separator: "." });
      const client = await connect(parent);
      expect((await client.tools()).map((t) => t.name)).toEqual(["wx.forecast"]);
      expect((await client.prompts()).map((p) => p.name)).toEqual(["wx.brief"]);
      // URIs keep the prefix rule whatever joins names.
      expect((await client.resources()).map((r) => r.uri)).toContain("weather://wx/stations");
      expect(() => parent.mount("x", weatherServer().server, { separator: "/" })).toThrow(/separator/);
      expect(() => parent.mount("x", weatherServer().server, { separator: "" })).toThrow(/separator/);
    });

    it("serves what select keeps, under the names and texts it gives", async () => {
      const { server: child } = weatherServer();
      child.tool("alerts", { description: "Alerts of the day" }, () => "none");
      const parent = createServer({ name: "hub", version: "1" });
      const seen: string[] = [];
      parent.mount("wx", child, {
        select: (item) => {
          seen.push(`${item.kind} ${item.key} ${item.served}`);
          if (item.key === "alerts") return false;
          if (item.key === "forecast") return { name: "weather", description: "Tomorrow's sky" };
          return true;
        },
      });
      expect(seen).toEqual(["tool alerts wx_alerts", "tool forecast wx_forecast", "prompt brief wx_brief"]);
      const client = await connect(parent);
      const tools = await client.tools();
      expect(tools.map((t) => [t.name, t.description])).toEqual([["weather", "Tomorrow's sky"]]);
      // The renamed tool is the mounted server's, arguments checked by it.
      expect((await client.callTool("weather", { city: "Oslo" })).structuredContent).toEqual({
        city: "Oslo",
        sky: "clear",
      });
      await expect(client.callTool("wx_forecast", { city: "Oslo" })).rejects.toMatchObject({ code: -32602 });
      await expect(client.callTool("wx_alerts")).rejects.toMatchObject({ code: -32602 });
      await expect(client.callTool("alerts")).rejects.toMatchObject({ code: -32602 });
      expect((await client.prompts()).map((p) => p.name)).toEqual(["wx_brief"]);
    });

    it("shows what it mounts only to the viewers `visible` lets see it: hidden is neither listed nor usable", async () => {
      const parent = createServer({ name: "hub", version: "1" });
      parent.mount("wx", weatherServer().server, {
        visible: (viewer, item) =>
          viewer.clientInfo?.name === "staff" || (item.kind === "tool" && item.key === "forecast"),
      });
      const staff = await connect(parent, "staff");
      const guest = await connect(parent, "guest");
      expect((await staff.tools()).map((t) => t.name)).toEqual(["wx_forecast"]);
      expect((await staff.resources()).map((r) => r.uri)).toContain("weather://wx/stations");
      expect((await staff.getPrompt("wx_brief", { city: "Oslo" })).messages).toHaveLength(1);

      expect((await guest.tools()).map((t) => t.name)).toEqual(["wx_forecast"]);
      expect(await guest.resources()).toEqual([]);
      expect(await guest.resourceTemplates()).toEqual([]);
      expect(await guest.prompts()).toEqual([]);
      await expect(guest.readResource("weather://wx/stations")).rejects.toThrow(/not found/i);
      await expect(guest.readResource("weather://wx/cities/Oslo")).rejects.toThrow(/not found/i);
      await expect(guest.getPrompt("wx_brief", { city: "Oslo" })).rejects.toMatchObject({ code: -32602 });
    });

    it("keeps the mounted definition's own rule beside the mount's", async () => {
      const child = createServer({ name: "child", version: "1" });
      child.tool("secret", { visible: (viewer) => viewer.clientInfo?.name === "owner" }, () => "s");
      child.tool("open", {}, () => "o");
      const parent = createServer({ name: "hub", version: "1" });
      parent.mount("c", child, { visible: (viewer) => viewer.clientInfo?.name !== "banned" });
      expect((await (await connect(parent, "owner")).tools()).map((t) => t.name)).toEqual(["c_open", "c_secret"]);
      expect((await (await connect(parent, "guest")).tools()).map((t) => t.name)).toEqual(["c_open"]);
      const banned = await connect(parent, "banned");
      expect(await banned.tools()).toEqual([]);
      await expect(banned.callTool("c_open")).rejects.toMatchObject({ code: -32602 });
    });
  });
}
