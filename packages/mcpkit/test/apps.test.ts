import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Revision } from "../src/protocol/versions.js";
import {
  APP_MIME_TYPE,
  APPS_EXTENSION,
  appTool,
  appView,
  createServer,
  forAppHosts,
  supportsApps,
} from "../src/server/index.js";
import { connectInMemory } from "../src/testing/index.js";

const HTML = "<!DOCTYPE html><html><body><div id=chart></div></body></html>";
const APP_HOST = { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };

function weatherApp() {
  const server = createServer({ name: "weather", version: "1" });
  appView(
    server,
    "ui://weather/dashboard",
    {
      name: "dashboard",
      description: "Weather dashboard",
      ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true },
    },
    () => HTML,
  );
  appView(server, "ui://weather/bytes", { name: "bytes" }, () => new TextEncoder().encode(HTML));
  appTool(
    server,
    "forecast",
    {
      description: "Forecast, shown on the dashboard",
      input: z.object({ city: z.string() }),
      ui: { resourceUri: "ui://weather/dashboard" },
      _meta: { "example.com/keep": true },
      visible: forAppHosts,
    },
    ({ city }) => ({ content: [{ type: "text", text: `Sunny in ${city}` }], structuredContent: { city, sky: "sun" } }),
  );
  appTool(
    server,
    "refresh",
    { ui: { resourceUri: "ui://weather/dashboard", visibility: ["app"] }, visible: forAppHosts },
    () => "refreshed",
  );
  // The text-only twin, for hosts that do not render views.
  server.tool("forecast_text", { visible: (v) => !forAppHosts(v) }, () => "Sunny");
  return server;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("declaring MCP Apps", () => {
  it("refuses views and tools outside the ui:// scheme", () => {
    const server = createServer({ name: "s", version: "1" });
    expect(() => appView(server, "https://example.com/x", { name: "x" }, () => HTML)).toThrow(/ui:\/\//);
    expect(() => appTool(server, "t", { ui: { resourceUri: "file:///x.html" } }, () => "")).toThrow(/ui:\/\//);
  });

  it("reads which clients render views from their capabilities", () => {
    expect(supportsApps(APP_HOST)).toBe(true);
    expect(supportsApps({ extensions: { [APPS_EXTENSION]: { mimeTypes: ["text/html"] } } })).toBe(false);
    expect(supportsApps({})).toBe(false);
    expect(supportsApps(undefined)).toBe(false);
  });
});

for (const revision of [undefined, "2026-07-28"] as (Revision | undefined)[]) {
  describe(`MCP Apps, ${revision ?? "2025-11-25"} client`, () => {
    it("lists the view with its MIME type and _meta.ui, and reads it with them", async () => {
      const { client, close } = await connectInMemory(weatherApp(), {
        capabilities: APP_HOST,
        ...(revision && { protocolVersion: revision }),
      });
      closers.push(close);
      const listed = (await client.listResources()).resources.find((r) => r.uri === "ui://weather/dashboard");
      expect(listed).toEqual({
        uri: "ui://weather/dashboard",
        name: "dashboard",
        description: "Weather dashboard",
        mimeType: APP_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true } },
      });
      expect((await client.readResource("ui://weather/dashboard")).contents).toEqual([
        {
          uri: "ui://weather/dashboard",
          mimeType: APP_MIME_TYPE,
          text: HTML,
          _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true } },
        },
      ]);
      const bytes = (await client.readResource("ui://weather/bytes")).contents[0] as { blob?: string };
      expect(Buffer.from(bytes.blob ?? "", "base64").toString()).toBe(HTML);
    });

    it("links the tool to its view, and shows app hosts the app and others the text twin", async () => {
      const app = await connectInMemory(weatherApp(), {
        capabilities: APP_HOST,
        ...(revision && { protocolVersion: revision }),
      });
      const plain = await connectInMemory(weatherApp(), revision ? { protocolVersion: revision } : {});
      closers.push(app.close, plain.close);

      const tools = (await app.client.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(["forecast", "refresh"]);
      expect(tools[0]?._meta).toEqual({ "example.com/keep": true, ui: { resourceUri: "ui://weather/dashboard" } });
      expect(tools[1]?._meta).toEqual({ ui: { resourceUri: "ui://weather/dashboard", visibility: ["app"] } });
      const result = await app.client.callTool("forecast", { city: "Oslo" });
      expect(result.structuredContent).toEqual({ city: "Oslo", sky: "sun" });
      expect(result.content).toEqual([{ type: "text", text: "Sunny in Oslo" }]);

      expect((await plain.client.listTools()).tools.map((t) => t.name)).toEqual(["forecast_text"]);
      await expect(plain.client.callTool("forecast", { city: "Oslo" })).rejects.toMatchObject({ code: -32602 });
    });
  });
}
