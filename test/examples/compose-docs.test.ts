import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "mcpkit/client";
import { streamableHttpClientTransport } from "mcpkit/http-client";
import { APP_MIME_TYPE, APPS_EXTENSION } from "mcpkit/server";
import { connectInMemory } from "mcpkit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createWeatherApp } from "../../examples/compose/apps.mjs";
import { createHub } from "../../examples/compose/mount.mjs";
import { frontOverHttp } from "../../examples/compose/proxy.mjs";
import { createTeamServer } from "../../examples/compose/visibility.mjs";

// docs/composition.md, docs/visibility.md and docs/apps.md quote examples/compose/*; the
// quotes must match the files, and the files must do what the docs say.

const ROOT = new URL("../../", import.meta.url);

function quotes(doc: string) {
  const text = readFileSync(new URL(doc, ROOT), "utf8");
  return [...text.matchAll(/<!-- quoted from (\S+) -->\n```\w*\n([\s\S]*?)```/g)].map((m) => ({
    file: m[1] as string,
    text: m[2] as string,
  }));
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe.each(["docs/composition.md", "docs/visibility.md", "docs/apps.md"])("%s", (doc) => {
  it("quotes its examples verbatim", () => {
    const found = quotes(doc);
    expect(found.length).toBeGreaterThan(0);
    for (const { file, text } of found) expect(readFileSync(new URL(file, ROOT), "utf8"), file).toContain(text);
  });
});

describe("examples/compose", () => {
  it("mount.mjs: the hub serves both servers under their prefixes", async () => {
    const { client, close } = await connectInMemory(createHub());
    closers.push(close);
    expect((await client.tools()).map((t) => t.name)).toEqual(["notes_add", "weather_forecast"]);
    expect(await client.callTool("weather_forecast", { city: "Oslo" })).toMatchObject({
      content: [{ text: "Sunny in Oslo" }],
    });
    expect((await client.readResource("weather://weather/stations")).contents[0]).toMatchObject({
      text: "Oslo, Paris",
    });
    expect((await client.readResource("notes://notes/7")).contents[0]).toMatchObject({
      uri: "notes://notes/7",
      text: "Note 7",
    });
  });

  it("proxy.mjs: a stdio server answers over Streamable HTTP", async () => {
    const hello = fileURLToPath(new URL("examples/hello-server.mjs", ROOT));
    const front = await frontOverHttp(process.execPath, [hello]);
    closers.push(front.close);
    for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
      const client = new Client({ name: "docs", version: "1", protocolVersion });
      await client.connect(streamableHttpClientTransport(front.url));
      closers.push(() => client.close());
      expect((await client.tools()).map((t) => t.name)).toEqual(["greet"]);
      expect(JSON.stringify(await client.callTool("greet", { name: "Ada" }))).toContain("Hello, Ada!");
    }
  }, 30_000);

  it("visibility.mjs: rules by principal and client, and a tool disabled per session", async () => {
    const server = createTeamServer();
    const desktop = await connectInMemory(server, { name: "desktop" });
    const other = await connectInMemory(server, { name: "cli" });
    closers.push(desktop.close, other.close);
    expect((await other.client.listTools()).tools.map((t) => t.name)).toEqual(["search"]);
    expect((await desktop.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["desktop_tips"]);
    await expect(other.client.getPrompt("desktop_tips")).rejects.toMatchObject({ code: -32602 });
    // No token, no principal: delete_all is hidden; beta_search until the session is let in.
    await expect(desktop.client.callTool("delete_all")).rejects.toMatchObject({ code: -32602 });
    desktop.session.enable("beta_search");
    expect(await desktop.client.callTool("beta_search")).toMatchObject({ content: [{ text: "better results" }] });
    await expect(other.client.callTool("beta_search")).rejects.toMatchObject({ code: -32602 });
  });

  it("apps.mjs: the forecast names its view; the app-only tool shows to app hosts only", async () => {
    const server = createWeatherApp();
    const host = await connectInMemory(server, {
      capabilities: { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } },
    });
    const plain = await connectInMemory(server);
    closers.push(host.close, plain.close);
    const tools = await host.client.tools();
    expect(tools.map((t) => [t.name, t._meta?.ui])).toEqual([
      ["forecast", { resourceUri: "ui://weather/dashboard" }],
      ["refresh", { resourceUri: "ui://weather/dashboard", visibility: ["app"] }],
    ]);
    expect((await plain.client.tools()).map((t) => t.name)).toEqual(["forecast"]);
    const view = (await host.client.readResource("ui://weather/dashboard")).contents[0];
    expect(view).toMatchObject({ mimeType: APP_MIME_TYPE, _meta: { ui: { prefersBorder: true } } });
    expect((view as { text: string }).text).toContain("ui/notifications/tool-result");
    const result = await host.client.callTool("forecast", { city: "Lima" });
    expect(result.structuredContent).toEqual({ city: "Lima", sky: "sunny" });
  });
});
